// A chat's title before the person names it: "New chat" until its first message, then that
// message's first line, cut at a word boundary when it is long.

/** The title of a chat before its first message. */
export const UNTITLED = 'New chat';
const TITLE_MAX_CHARS = 60;

/** A title from the first line of the first message, cut at a word boundary when it is long. */
export function titleFromText(text: string): string {
	const firstLine = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
	if (firstLine === '') {
		return UNTITLED;
	}
	const chars = Array.from(firstLine); // code points: never cut an emoji in half
	if (chars.length <= TITLE_MAX_CHARS) {
		return firstLine;
	}
	const cut = chars.slice(0, TITLE_MAX_CHARS).join('');
	const space = cut.lastIndexOf(' ');
	return `${(space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
