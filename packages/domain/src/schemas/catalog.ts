import { z } from 'zod';

/**
 * The versions catalog (DOMAIN.md, "The versions catalog"): which Kubernetes versions the platform
 * offers and which VM template carries each. It is YAML in a ConfigMap; the edge parses the YAML
 * and hands the parsed list to this schema.
 */
export const VersionsCatalogEntrySchema = z.looseObject({
  version: z.string().regex(/^v?\d+\.\d+\.\d+$/, 'a Kubernetes version such as v1.33.4'),
  vmTemplateName: z.string().min(1),
  bootstrapFilesSecret: z.string().optional(),
});
export type VersionsCatalogEntry = z.infer<typeof VersionsCatalogEntrySchema>;

export const VersionsCatalogSchema = z.array(VersionsCatalogEntrySchema);
export type VersionsCatalog = z.infer<typeof VersionsCatalogSchema>;
