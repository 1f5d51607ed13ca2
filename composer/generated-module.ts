/** @internal A WESL module the composer writes per variant, with the fragment each line came from. */
export interface GeneratedModule {
  /** wesl module name (`bindings`, `io`, `slots`, `constants`, `weft_main`). */
  name: string;
  text: string;
  /** Per line (0-based): the fragment id that declared what the line holds, or null. */
  origins: readonly (string | null)[];
}

/** @internal Builds a generated module line by line. */
export function makeModuleWriter(name: string): {
  line(text: string, origin?: string | null): void;
  done(): GeneratedModule;
} {
  const lines: string[] = [];
  const origins: (string | null)[] = [];
  return {
    line(text, origin = null) {
      for (const part of text.split('\n')) {
        lines.push(part);
        origins.push(origin);
      }
    },
    done: () => ({ name, text: lines.length ? `${lines.join('\n')}\n` : '', origins }),
  };
}
