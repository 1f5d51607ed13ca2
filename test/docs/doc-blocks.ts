// Extracts the ```ts blocks of the shipped documents (README.md, docs/*.md) for the doc tests.
// The conventions are documented in docs/contributing.md ("Code blocks are tests").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How a block is tested: type-checked only, type-checked and run on Dawn, or the prelude (the README's `prelude.ts`
 * that other blocks import as `./prelude.js`; type-checked, and run as part of each block that imports it).
 */
export type DocBlockMode = 'run' | 'types-only' | 'prelude';

/** One ```ts block of a document. */
export interface DocBlock {
  /** Repo-relative document path, e.g. `docs/picking.md`. */
  file: string;
  /** 1-based position among the document's ts blocks. */
  index: number;
  /** 1-based line of the block's first code line in the document. */
  line: number;
  code: string;
  mode: DocBlockMode;
  /** Whether the block imports the prelude (`from './prelude.js'`): its run ends by disposing the prelude's engine. */
  usesPrelude: boolean;
}

const typesOnlyMarker = '<!-- doc-test: types-only -->';
const preludeMarker = '<!-- doc-test: prelude -->';

/** The import of the prelude by a block, as a reader copies it next to the README's `prelude.ts`. */
export const preludeImport = /^import \{[^}]*\} from '\.\/prelude\.js';$/m;

/** The documents whose blocks are tests: README.md and every docs/*.md that has a ts block. */
export function listDocFiles(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

/** Every ```ts block of one markdown text (`ts browser` blocks and marked blocks are types-only). */
export function extractDocBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,})(\S*)\s*(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const [, indent, ticks, language, info] = fence;
    const end = lines.findIndex((line, j) => j > i && line.trimStart().startsWith(ticks) && line.trim() === ticks);
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code fence`);
    if (language === 'ts' || language === 'typescript') {
      let previous = i - 1;
      while (previous >= 0 && lines[previous].trim() === '') previous--;
      const marker = previous >= 0 ? lines[previous].trim() : '';
      const body = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      const code = body.join('\n');
      blocks.push({
        file,
        index: blocks.length + 1,
        line: i + 2,
        code,
        mode:
          marker === preludeMarker
            ? 'prelude'
            : marker === typesOnlyMarker || /\bbrowser\b/.test(info)
              ? 'types-only'
              : 'run',
        usesPrelude: preludeImport.test(code),
      });
    }
    i = end;
  }
  return blocks;
}

/** Every ts block of the shipped documents under `root`. */
export function readDocBlocks(root: string): DocBlock[] {
  return listDocFiles(root).flatMap((file) => extractDocBlocks(file, readFileSync(join(root, file), 'utf8')));
}

/** A block's file name in the scratch project. */
export function blockFileName(block: DocBlock): string {
  return `${block.file.replace(/[^A-Za-z0-9]+/g, '-')}-block-${String(block.index).padStart(2, '0')}.ts`;
}

/** The prelude block's file name in the scratch project, where `./prelude.js` resolves. */
export function blockFileNameOf(block: DocBlock): string {
  return block.mode === 'prelude' ? 'prelude.ts' : blockFileName(block);
}

/** The block as a module, as written (`export {}` makes a block without imports a module). */
export function blockModuleSource(block: DocBlock): string {
  return `${block.code}\nexport {};\n`;
}
