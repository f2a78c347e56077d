import { describe, expect, it } from 'vitest';
import { aProviderDeployment } from './builders';

describe('testing builders', () => {
  it('aProviderDeployment is a valid apps/v1 Deployment: its selector matches the pod template labels', () => {
    const d = aProviderDeployment('1.0.12') as ReturnType<typeof aProviderDeployment> & {
      spec: {
        selector: { matchLabels: Record<string, string> };
        template: { metadata: { labels: Record<string, string> } };
      };
    };
    const { matchLabels } = d.spec.selector;
    expect(Object.keys(matchLabels).length).toBeGreaterThan(0);
    for (const [k, v] of Object.entries(matchLabels))
      expect(d.spec.template.metadata.labels[k]).toBe(v);
  });
});
