/** Reading the repository's Markdown documents, for the tests of test/package that check what they say. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** A document of the repository, by its path from the root. */
export const readDocument = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The text without its fenced code blocks, which show code, not links or rows. */
export const withoutFences = (markdown: string): string => markdown.replace(/```[\s\S]*?```/g, '');
