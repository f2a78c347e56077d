import { parseIPv4 } from '../rules/net';
import type { AdditionNic, IpPoolEntry } from '../schemas/dcs';

/**
 * Suggested IP pool entries (O-SCALE-UP, O-CREATE-POOL, the "Add entry" button): they follow the
 * pattern of the pool's own entries (mask, gateway, dns, extra NICs, persistent disks, the shape
 * of hostnames and machine names), never another pool's, and never collide with an address or
 * name in use (R-POOL-2), even after entries were removed. Shown for review, never written blind.
 */

const fromNumber = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** The first address after the highest of `ips` that none of them holds, within the same /24. */
export function nextFreeIp(ips: readonly string[]): string | undefined {
  const nums = ips.flatMap((ip) => {
    const n = parseIPv4(ip);
    return n === undefined ? [] : [n];
  });
  if (nums.length === 0) return undefined;
  const taken = new Set(nums);
  let n = Math.max(...nums) + 1;
  while (taken.has(n)) n++;
  return (n & 255) === 255 || (n & 255) === 0 ? undefined : fromNumber(n);
}

const NUMBERED = /^(.*?)-?(\d+)$/;

/** The next free `<stem>-<k>` after the highest number of names shaped like `name`. */
function nextFreeName(name: string, used: ReadonlySet<string>): string {
  const m = NUMBERED.exec(name);
  const stem = m ? (m[1] ?? '') : name;
  let k = 0;
  for (const u of used) {
    const um = NUMBERED.exec(u);
    if (um && (um[1] ?? '') === stem) k = Math.max(k, Number(um[2]));
  }
  for (k += 1; ; k++) {
    const candidate = `${stem}-${k}`;
    if (!used.has(candidate)) return candidate;
  }
}

export interface SuggestOptions {
  /** Addresses held elsewhere (other pools of the namespace, R-POOL-2), primary or extra NIC. */
  takenIps?: readonly string[];
  /** Hostnames and machine names that must not be reused (entries just removed, say). */
  takenNames?: readonly string[];
}

/**
 * `n` entries after the pool's last one (`entries`: the pool's own, those being added included).
 * Empty values are never suggested for fields the user did not give: an extra NIC gets the next
 * address of that NIC's network when the pool shows one, else no ip at all (R-NIC-1 recommends
 * one; the user fills it in), never `ip: ""`.
 */
export function suggestEntries(
  entries: readonly IpPoolEntry[],
  n: number,
  opts: SuggestOptions = {},
): IpPoolEntry[] {
  const last = entries.at(-1);
  const out: IpPoolEntry[] = [];
  const all = () => [...entries, ...out];
  const names = new Set([
    ...(opts.takenNames ?? []),
    ...entries.flatMap((e) => [e.hostname, e.machineName].filter((x) => x !== undefined)),
  ]);
  const ips = () => [
    ...(opts.takenIps ?? []),
    ...all().flatMap((e) => [e.ip, ...(e.additionNic ?? []).map((nic) => nic.ip ?? '')]),
  ];
  for (let i = 0; i < n; i++) {
    // Without an entry of its own the pool has no network to continue: the user types the first.
    const ip = last ? nextFreeIp(ips().filter((x) => samePrefix(x, last.ip))) : undefined;
    const entry: IpPoolEntry = {
      ip: ip ?? '',
      mask: last?.mask ?? '24',
      gateway: last?.gateway ?? '',
      ...(last?.dns ? { dns: last.dns } : {}),
    };
    if (last?.hostname) {
      entry.hostname = nextFreeName(last.hostname, names);
      names.add(entry.hostname);
    }
    if (last?.machineName) {
      entry.machineName = nextFreeName(last.machineName, names);
      names.add(entry.machineName);
    }
    if (last?.additionNic?.length) {
      entry.additionNic = last.additionNic.map((nic, j) => suggestNic(nic, j, all(), ips()));
    }
    if (last?.persistentDisk?.length) {
      // isThin is sent only when the user sets it (R-DISK-3): not copied.
      entry.persistentDisk = last.persistentDisk.map(({ isThin: _thin, ...d }) => ({ ...d }));
    }
    out.push(entry);
  }
  return out;
}

/** Whether `ip` lies in the same /24 as `like` (the primary network's addresses). */
function samePrefix(ip: string, like: string | undefined): boolean {
  if (like === undefined) return false;
  const a = parseIPv4(ip);
  const b = parseIPv4(like);
  return a !== undefined && b !== undefined && a >>> 8 === b >>> 8;
}

function suggestNic(
  nic: AdditionNic,
  j: number,
  entries: readonly IpPoolEntry[],
  taken: readonly string[],
): AdditionNic {
  const { ip: lastIp, ...rest } = nic;
  const copy: AdditionNic = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''),
  );
  const network = entries.flatMap((e) => {
    const x = e.additionNic?.[j]?.ip;
    return x && samePrefix(x, lastIp) ? [x] : [];
  });
  const ip =
    lastIp === undefined || lastIp === ''
      ? undefined
      : nextFreeIp([...network, ...taken.filter((t) => samePrefix(t, lastIp))]);
  return ip === undefined ? copy : { ...copy, ip };
}
