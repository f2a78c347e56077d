import { execFileSync } from 'node:child_process';

/**
 * Issue 13 item 3: the shell commands a README shows. Pure: markdown in, commands out; what to do
 * with each is `readme-commands.test.ts`'s table.
 *
 * A command is
 * - a line of a fenced `sh` / `bash` / `shell` / `console` block (a `console` block's lines that
 *   start with `$ `), with `\` continuations joined and a trailing `# comment` removed, or
 * - an inline code span, in prose or in such a comment, whose first word (after `VAR=value`
 *   assignments) is a command this repository's READMEs use. A span that is the tool's bare
 *   name (`kubectl`) names the tool; it is no command.
 */

/** The first words that make an inline code span a command. */
export const COMMAND_WORDS = new Set([
  'pnpm',
  'npx',
  'node',
  'kubectl',
  'curl',
  'bash',
  'sh',
  'docker',
  'tsx',
  'git',
  'apt-get',
]);

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

export interface ReadmeCommand {
  /** Repository-relative path of the README. */
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as a reader would type it, whitespace collapsed. */
  text: string;
  source: 'block' | 'inline';
}

/** Removes a `# comment` that starts outside quotes; returns the code and the comment. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
      return { code: line.slice(0, i), comment: line.slice(i + 1) };
    }
  }
  return { code: line, comment: '' };
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The first word that is not a `VAR=value` assignment. */
export function commandWord(text: string): string | undefined {
  return text.split(' ').find((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
}

function inlineSpans(text: string): string[] {
  return [...text.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)].map((m) => collapse(m[1] ?? ''));
}

function isInlineCommand(span: string): boolean {
  const word = commandWord(span);
  return word !== undefined && COMMAND_WORDS.has(word) && span.trim() !== word;
}

export function extractCommands(markdown: string, file: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const lines = markdown.split('\n');
  let fence: { marker: string; shell: boolean; console: boolean } | undefined;
  let pending: { line: number; text: string } | undefined;
  const inline = (text: string, line: number) => {
    for (const span of inlineSpans(text)) {
      if (isInlineCommand(span)) out.push({ file, line, text: span, source: 'inline' });
    }
  };
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const open = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(raw);
    if (!fence && open) {
      const lang = (open[2] ?? '').toLowerCase();
      fence = {
        marker: open[1] ?? '```',
        shell: SHELL_LANGS.has(lang),
        console: lang === 'console',
      };
      return;
    }
    if (fence) {
      if (raw.trim().startsWith(fence.marker)) {
        fence = undefined;
        pending = undefined;
        return;
      }
      if (!fence.shell) return;
      let body = raw;
      if (!pending && fence.console) {
        const prompt = /^\s*\$ (.*)$/.exec(raw);
        if (!prompt) return; // output, not a command
        body = prompt[1] ?? '';
      }
      const { code, comment } = splitComment(body);
      inline(comment, lineNo);
      const continued = /\\\s*$/.test(code);
      const part = code.replace(/\\\s*$/, '');
      const text = pending ? `${pending.text} ${part}` : part;
      const start = pending?.line ?? lineNo;
      if (continued) {
        pending = { line: start, text };
        return;
      }
      pending = undefined;
      if (collapse(text) !== '') {
        out.push({ file, line: start, text: collapse(text), source: 'block' });
      }
      return;
    }
    inline(raw, lineNo);
  });
  return out;
}

/** Every README.md git tracks in the repository at `root`. */
export function trackedReadmes(root: string): string[] {
  return execFileSync('git', ['ls-files', '--', '*README.md', 'README.md'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f !== '' && !f.includes('node_modules/'));
}
