import { describe, expect, it } from 'vitest';
import { KUBELET_PATCH_PATH } from '../labels';
import { defaultBootstrapSpec } from '../planners/bootstrap-defaults';
import { anIpEntry, aValidationContext } from '../testing';
import { validateBootstrapSpec } from './bootstrap';
import { dcsNameProblem } from './net';
import { validatePoolEntries } from './pool';
import { checkTemplateFields } from './template';

/** Issue 10 item 6: names that reach Kubernetes or DCS are validated as they would accept them. */

const ctx = aValidationContext();
const errorsAt = (issues: readonly { severity: string; path: string; messageKey: string }[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.path} ${i.messageKey}`);

describe('R-POOL-3: machineName is a VM name (DNS-1123 subdomain)', () => {
  it.each(['vm\u0000x', 'vm\nx', 'a/b', '..', 'a..b', 'vm\u202eexe', '-vm', 'VM-1', ' vm', ''])(
    'refuses %j',
    (machineName) => {
      const issues = validatePoolEntries([anIpEntry(4, { machineName })], ctx, 'entries', {});
      expect(errorsAt(issues)).toContain('entries.0.machineName pool.machineNameInvalid');
    },
  );

  it('accepts worker-vm-4 and worker.vm.4, and an entry without machineName', () => {
    for (const machineName of ['worker-vm-4', 'worker.vm.4']) {
      const issues = validatePoolEntries([anIpEntry(4, { machineName })], ctx, 'entries', {});
      expect(errorsAt(issues)).toEqual([]);
    }
    const { machineName: _m, ...entry } = anIpEntry(4);
    expect(errorsAt(validatePoolEntries([entry], ctx, 'entries', {}))).toEqual([]);
  });

  it('shows a NUL or bidi override escaped in the message, never raw', () => {
    const [i] = validatePoolEntries([anIpEntry(4, { machineName: 'a\u202eb' })], ctx, 'e', {});
    expect(i?.message).toContain('a\\u202eb');
    expect(i?.message).not.toContain('\u202e');
  });
});

describe('R-TPL-3, R-NIC-1: names DCS resolves are not "", ".." or paths', () => {
  it.each(['', '..', '.', 'a/b', 'a\\b', ' pg', 'pg\n'])('refuses vmConfig names %j', (name) => {
    const issues = checkTemplateFields(
      {
        vmTemplateName: 'alauda-os-k8s-v1.33.4',
        vmConfig: {
          dvSwitchName: name,
          portGroupName: name,
          dcsMachineDiskSpec: [{ quantity: 0, systemVolume: true, datastoreClusterName: name }],
        },
      },
      ctx,
      'spec',
    );
    expect(errorsAt(issues)).toEqual(
      expect.arrayContaining([
        'spec.vmConfig.dvSwitchName dcs.nameInvalid',
        'spec.vmConfig.portGroupName dcs.nameInvalid',
        'spec.vmConfig.dcsMachineDiskSpec.0.datastoreClusterName dcs.nameInvalid',
      ]),
    );
  });

  it('refuses ".." as an extra NIC’s switch and a persistent disk’s datastore', () => {
    const entry = anIpEntry(4, {
      additionNic: [{ ip: '192.168.0.14', mask: '24', dvSwitchName: '..', portGroupName: 'pg-2' }],
      persistentDisk: [{ slot: 0, quantityGB: 40, datastoreClusterName: '..', path: '/var/cpaas' }],
    });
    expect(errorsAt(validatePoolEntries([entry], ctx, 'e', {}))).toEqual(
      expect.arrayContaining([
        'e.0.additionNic.0.dvSwitchName dcs.nameInvalid',
        'e.0.persistentDisk.0.datastoreClusterName dcs.nameInvalid',
      ]),
    );
  });

  it('accepts the names DCS uses', () => {
    for (const n of ['dvs-1', 'pg_storage 2', 'ds-cluster-1', '数据存储']) {
      expect(dcsNameProblem(n), n).toBeUndefined();
    }
  });
});

describe('bootstrap files from a Secret name a Secret that can exist', () => {
  it('a Secret name of ../etc is an error, not a warning that the Secret is unknown', () => {
    const spec = defaultBootstrapSpec({ version: 'v1.35.0', sshAuthorizedKeys: [] });
    spec.files = [
      {
        path: KUBELET_PATCH_PATH,
        contentFrom: { secret: { name: '../etc', key: '../passwd' } },
      },
    ];
    const issues = validateBootstrapSpec(spec, 'v1.35.0', ctx, 'bootstrap.spec');
    expect(errorsAt(issues)).toEqual([
      'bootstrap.spec.files.0.contentFrom.secret.name boot.secretNameInvalid',
      'bootstrap.spec.files.0.contentFrom.secret.key boot.secretKeyInvalid',
    ]);
    expect(issues.filter((i) => i.severity === 'warning' && i.rule === 'R-BOOT-1')).toEqual([]);
  });
});
