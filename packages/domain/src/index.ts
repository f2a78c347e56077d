export * from './kinds';
export * from './labels';
export * from './label-selector';
export * from './dcs-fields';
export * from './schemas';
export * from './rules/issue';
export * from './rules/context';
export * from './versions';
export * from './api-versions';
export * from './intstr';
export * from './requests';
export * from './views';
export * from './planners';
export * from './stream-events';
export * from './rights';
export * from './rights-schema';
export * from './audit';
export * from './conversion';
export * from './rules';
export {
  LOCALES,
  ZH_GLOSSARY,
  englishOutsideGlossary,
  zhGlossaryTerms,
  fillMessage,
  formatMessage,
  isMessageKey,
  localizeMessage,
  messages,
  placeholdersOf,
  type Locale,
  type MessageKey,
  type MessageParams,
  type MessageText,
} from './i18n';
export * from './oidc-claims';
