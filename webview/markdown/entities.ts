// Character references in Markdown text (`&lt;`, `&#60;`, `&amp;`), decoded into the characters
// they stand for, as a browser would for marked's HTML. The result only ever becomes a text node.

const NAMED: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
	copy: '©',
	reg: '®',
	trade: '™',
	hellip: '…',
	mdash: '—',
	ndash: '–',
	lsquo: '‘',
	rsquo: '’',
	ldquo: '“',
	rdquo: '”',
	laquo: '«',
	raquo: '»',
	bull: '•',
	middot: '·',
	times: '×',
	divide: '÷',
	plusmn: '±',
	deg: '°',
	le: '≤',
	ge: '≥',
	ne: '≠',
	larr: '←',
	rarr: '→',
	uarr: '↑',
	darr: '↓',
	harr: '↔',
	sect: '§',
	para: '¶',
	euro: '€',
	pound: '£',
	yen: '¥',
	cent: '¢',
};

// Bounded repetitions and no nesting: linear on any input.
const REFERENCE = /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z][A-Za-z\d]{1,31}));/g;

function fromCodePoint(code: number): string {
	// As HTML does: NUL, surrogates and beyond-Unicode become the replacement character.
	return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
}

export function decodeEntities(text: string): string {
	if (!text.includes('&')) {
		return text;
	}
	return text.replace(REFERENCE, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
		if (decimal !== undefined) {
			return fromCodePoint(Number.parseInt(decimal, 10));
		}
		if (hex !== undefined) {
			return fromCodePoint(Number.parseInt(hex, 16));
		}
		return (name !== undefined && Object.hasOwn(NAMED, name) ? NAMED[name] : undefined) ?? match;
	});
}
