import { parseIPv4 } from '../rules/net';
import type { AdditionNic, IpPoolEntry } from '../schemas/dcs';

/**
 * Suggested IP pool entries (O-SCALE-UP, O-CREATE-POOL, the "Add entry" button): they follow the
 * pattern of the pool's own entries (mask, gateway, dns, extra NICs, persistent disks, the shape
 * of hostnames and machine names), never another pool's, and never collide with an address or
 * name in use (R-POOL-2), even after entries were removed. Shown for review, never written blind.
 */

const fromNumber = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** The address after `highest` (the highest in use in its /24), while it stays in that /24. */
function after(highest: number): string | undefined {
  const n = highest + 1;
  return n >>> 8 !== highest >>> 8 || (n & 255) === 255 ? undefined : fromNumber(n);
}

const NUMBERED = /^(.*?)-?(\d+)$/;

/**
 * The addresses and names in use while entries are suggested one after another, so that each
 * suggestion costs the same however many came before (a scale to thousands of replicas asks
 * for thousands; looking through every address again for each one froze the page: 1.7 s for
 * 1,000 entries, minutes for 20,000).
 */
class InUse {
  /**
   * The highest address in use per /24 (key: the address without its last byte): suggestions
   * continue after it, so no address in use can come next.
   */
  readonly #highest = new Map<number, number>();
  readonly #names = new Set<string>();
  /** The highest number in use per name stem (`pool-3` → `pool`: 3). */
  readonly #numbers = new Map<string, number>();

  ip(ip: string | undefined): void {
    const n = ip === undefined ? undefined : parseIPv4(ip);
    if (n === undefined) return;
    const net = n >>> 8;
    this.#highest.set(net, Math.max(this.#highest.get(net) ?? n, n));
  }

  name(name: string | undefined): void {
    if (name === undefined) return;
    this.#names.add(name);
    const m = NUMBERED.exec(name);
    if (!m) return;
    const stem = m[1] ?? '';
    this.#numbers.set(stem, Math.max(this.#numbers.get(stem) ?? 0, Number(m[2])));
  }

  /** The next free address of `like`'s /24 after the highest in use there, taken at once. */
  nextIp(like: string | undefined): string | undefined {
    const l = like === undefined ? undefined : parseIPv4(like);
    const highest = l === undefined ? undefined : this.#highest.get(l >>> 8);
    const ip = highest === undefined ? undefined : after(highest);
    this.ip(ip);
    return ip;
  }

  /** The next free `<stem>-<k>` after the highest number of names shaped like `name`, taken. */
  nextName(name: string): string {
    const m = NUMBERED.exec(name);
    const stem = m ? (m[1] ?? '') : name;
    let k = (this.#numbers.get(stem) ?? 0) + 1;
    while (this.#names.has(`${stem}-${String(k)}`)) k++;
    const candidate = `${stem}-${String(k)}`;
    this.name(candidate);
    return candidate;
  }
}

/**
 * The most entries one suggestion makes: about what one request may carry (JSON_LIMITS: 1 MiB,
 * a few hundred bytes per entry with its NICs and disks), and far more than a /24 has addresses
 * for. A larger shortfall is suggested in steps, each reviewed.
 */
export const MAX_SUGGESTED_ENTRIES = 1000;

/** How many entries a suggestion for `wanted` makes (a count typed by the user: any number). */
export const suggestionCount = (wanted: number): number =>
  Number.isFinite(wanted) ? Math.min(MAX_SUGGESTED_ENTRIES, Math.max(0, Math.trunc(wanted))) : 0;

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
  const used = new InUse();
  for (const ip of opts.takenIps ?? []) used.ip(ip);
  for (const name of opts.takenNames ?? []) used.name(name);
  for (const e of entries) {
    used.ip(e.ip);
    for (const nic of e.additionNic ?? []) used.ip(nic.ip);
    used.name(e.hostname);
    used.name(e.machineName);
  }
  const out: IpPoolEntry[] = [];
  for (let i = 0; i < suggestionCount(n); i++) {
    // Without an entry of its own the pool has no network to continue: the user types the first.
    const ip = last ? used.nextIp(last.ip) : undefined;
    const entry: IpPoolEntry = {
      ip: ip ?? '',
      mask: last?.mask ?? '24',
      gateway: last?.gateway ?? '',
      ...(last?.dns ? { dns: last.dns } : {}),
    };
    if (last?.hostname) entry.hostname = used.nextName(last.hostname);
    if (last?.machineName) entry.machineName = used.nextName(last.machineName);
    if (last?.additionNic?.length) {
      entry.additionNic = last.additionNic.map((nic) => suggestNic(nic, used));
    }
    if (last?.persistentDisk?.length) {
      // isThin is sent only when the user sets it (R-DISK-3): not copied.
      entry.persistentDisk = last.persistentDisk.map(({ isThin: _thin, ...d }) => ({ ...d }));
    }
    out.push(entry);
  }
  return out;
}

/** An extra NIC like the last entry's, on the next free address of that NIC's network. */
function suggestNic(nic: AdditionNic, used: InUse): AdditionNic {
  const { ip: lastIp, ...rest } = nic;
  const copy: AdditionNic = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''),
  );
  const ip = lastIp === undefined || lastIp === '' ? undefined : used.nextIp(lastIp);
  return ip === undefined ? copy : { ...copy, ip };
}
