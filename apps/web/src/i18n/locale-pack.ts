import type { Localizable } from './context';
import type { Messages } from './en';

/**
 * What the console needs to speak one language: its own texts, and domain's texts of plans and
 * rules (`undefined` for a key it does not know). Domain's view texts are not here: the app
 * builds some of them itself (status chips, diagnoses in local time), so both languages of
 * that small catalog load with the app (`localize.ts`).
 */
export interface LocalePack {
  dict: Messages;
  domain: (item: Localizable) => string | undefined;
}
