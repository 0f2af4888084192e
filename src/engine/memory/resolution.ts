/**
 * Resolution: a failure stays open only until the same check passes again (checkIdentity.ts says what
 * "the same" is). A failed run keeps its check as `open_key`; a later pass of that check sets the failure's
 * `resolved_at` and clears the key, in the project as a whole (a fix in a later session counts too). The
 * open keys are few, so they are held in memory for the chunk and a pass costs a query only when it settles
 * something.
 */
import type { Store } from '../storage/store';
import type { CheckIdentity } from './checkIdentity';

/** `key` and `target` as stored in `open_key`: a full run's failures sort together under their key. */
function openKey({ key, target }: CheckIdentity): string {
  return `${key}\u0000${target}`;
}

export class OpenChecks {
  /** Targets of each open key; '' stands for a failed full run. */
  private known: Map<string, Set<string>> | undefined;

  constructor(
    private readonly store: Store,
    /** Writes the rows buffered so far, so an update can find a failure of the same chunk. */
    private readonly flushRows: () => void,
  ) {}

  private openKeys(): Map<string, Set<string>> {
    if (!this.known) {
      this.known = new Map();
      for (const row of this.store.all(
        'SELECT DISTINCT open_key FROM observations INDEXED BY observations_open WHERE open_key IS NOT NULL',
      )) {
        const [key, target = ''] = String(row.open_key).split('\u0000');
        this.targets(key).add(target);
      }
    }
    return this.known;
  }

  private targets(key: string): Set<string> {
    const known = this.known!;
    let targets = known.get(key);
    if (!targets) known.set(key, (targets = new Set()));
    return targets;
  }

  isOpen(identity: CheckIdentity): boolean {
    return this.openKeys().get(identity.key)?.has(identity.target) ?? false;
  }

  /** A failure of `identity`: its `open_key`. */
  open(identity: CheckIdentity): string {
    this.openKeys();
    this.targets(identity.key).add(identity.target);
    return openKey(identity);
  }

  /** A pass of `identity` at `at`: a full run settles every target of its check, a targeted run its own. */
  pass(identity: CheckIdentity, at: number): void {
    const targets = this.openKeys().get(identity.key);
    if (!targets || (identity.target !== '' && !targets.has(identity.target))) return;
    this.flushRows();
    const settled =
      identity.target === ''
        ? {
            where: 'open_key >= ? AND open_key < ?',
            params: [`${identity.key}\u0000`, `${identity.key}\u0001`],
          }
        : { where: 'open_key = ?', params: [openKey(identity)] };
    this.store.run(
      `UPDATE observations INDEXED BY observations_open SET resolved_at = ?, open_key = NULL
       WHERE ${settled.where} AND at <= ?`,
      [at, ...settled.params, at],
    );
    if (identity.target === '') this.known!.delete(identity.key);
    else targets.delete(identity.target);
  }
}
