import type { IpPoolEntry } from '@dcs/domain';

const parse = (ip: string): [number, number, number, number] | undefined => {
  const p = ip.split('.').map(Number);
  return p.length === 4 && p.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)
    ? (p as [number, number, number, number])
    : undefined;
};

const toNumber = (p: [number, number, number, number]) =>
  ((p[0] * 256 + p[1]) * 256 + p[2]) * 256 + p[3];
const fromNumber = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** The first address after the highest of `ips` that none of them holds, within the same /24. */
export function nextIp(ips: readonly string[]): string | undefined {
  const nums = ips.flatMap((ip) => {
    const p = parse(ip);
    return p ? [toNumber(p)] : [];
  });
  if (nums.length === 0) return undefined;
  const taken = new Set(nums);
  let n = Math.max(...nums) + 1;
  while (taken.has(n)) n++;
  return (n & 255) === 255 || (n & 255) === 0 ? undefined : fromNumber(n);
}

/**
 * `n` entries to append after the pool's last one, copying its mask, gateway, dns, the shape of
 * its hostnames and machine names, and its persistent disks (the slots a machine expects).
 */
export function suggestEntries(
  existing: readonly IpPoolEntry[],
  n: number,
  /** Addresses held elsewhere (other pools of the namespace, R-POOL-2). */
  taken: readonly string[] = [],
): IpPoolEntry[] {
  const last = existing[existing.length - 1];
  const out: IpPoolEntry[] = [];
  for (let i = 0; i < n; i++) {
    const ip = nextIp([...taken, ...existing.map((e) => e.ip), ...out.map((e) => e.ip)]) ?? '';
    const k = existing.length + i + 1;
    const stem = (s: string) => s.replace(/-?\d+$/, '');
    out.push({
      ip,
      mask: last?.mask ?? '24',
      gateway: last?.gateway ?? '',
      ...(last?.dns ? { dns: last.dns } : {}),
      ...(last?.hostname ? { hostname: `${stem(last.hostname)}-${k}` } : {}),
      ...(last?.machineName ? { machineName: `${stem(last.machineName)}-${k}` } : {}),
      ...(last?.persistentDisk?.length
        ? { persistentDisk: last.persistentDisk.map((d) => ({ ...d })) }
        : {}),
    });
  }
  return out;
}
