// A Markdown file's YAML frontmatter: the `---` line, the fields, a closing `---` (or `...`), then
// the body. One splitter for every kind of file Aside reads this way — agent profiles, skills,
// Copilot's `.instructions.md` — each of which decides what no frontmatter means for it.

export type FrontmatterParts =
	/** `yaml`: the text between the fence lines; undefined when the file has no frontmatter (then `body` is the whole text). */
	| { readonly yaml: string | undefined; readonly body: string }
	/** The file opens a frontmatter and never closes it. */
	| { readonly error: string };

/** The file's frontmatter and body (a byte-order mark ignored). The body is as written, below the closing line. */
export function splitFrontmatter(text: string): FrontmatterParts {
	const unmarked = text.replace(/^\uFEFF/, '');
	const lines = unmarked.split(/\r?\n/);
	if (lines[0]?.trimEnd() !== '---') {
		return { yaml: undefined, body: unmarked };
	}
	const close = lines.findIndex((line, index) => index > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
	if (close < 0) {
		return { error: 'the frontmatter has no closing "---" line' };
	}
	return { yaml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

/** A frontmatter list as either form people write it: `a, b` or a YAML list; blanks dropped. */
export function listOf(value: string | readonly string[]): string[] {
	const items = typeof value === 'string' ? value.split(',') : value;
	return items.map((item) => item.trim()).filter((item) => item !== '');
}
