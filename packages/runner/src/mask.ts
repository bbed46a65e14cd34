export const MASKED = "[MASKED]";

/**
 * Replaces secrets in a stream of text. Output arrives in arbitrary chunks, so a secret may be
 * split between two of them: the longest tail that could still grow into a secret is held back
 * until the next chunk (or `flush`) decides it.
 */
export class Masker {
  private readonly secrets: string[];
  private pending = "";

  constructor(values: Iterable<string>) {
    const all = new Set<string>();
    for (const value of values) {
      if (value === "") continue;
      all.add(value);
      // gitlab-runner also masks the URL-encoded form (a secret inside a URL).
      all.add(encodeURIComponent(value));
    }
    // Longest first so that a secret containing another is replaced whole.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
  }

  /** Masks `text` and returns what is safe to emit now. */
  push(text: string): string {
    let pending = this.pending + text;
    for (const secret of this.secrets) pending = pending.split(secret).join(MASKED);
    const keep = this.heldBack(pending);
    this.pending = pending.slice(pending.length - keep);
    return pending.slice(0, pending.length - keep);
  }

  /** Emits whatever was held back (end of output). */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    return rest;
  }

  /** Length of the longest suffix of `text` that is a proper prefix of some secret. */
  private heldBack(text: string): number {
    let keep = 0;
    for (const secret of this.secrets) {
      for (let k = Math.min(secret.length - 1, text.length); k > keep; k--) {
        if (text.endsWith(secret.slice(0, k))) {
          keep = k;
          break;
        }
      }
    }
    return keep;
  }
}
