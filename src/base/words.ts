// The small grammar generated texts need: the article before a name ("an Edit call", "a Read
// call") and a count with its noun ("1 file", "2 files"). Names are tool names, hook events,
// JavaScript types and the like, so the rule is the written letter, with the few words whose
// sound differs from it.

/** Words spelled with a vowel that start with a consonant sound ("a user", "a one-off"). */
const CONSONANT_SOUND = /^(?:unique|unit|univers|usage|use|usual|eu|one\b|once)/i;
/** Words spelled with a consonant that start with a vowel sound ("an hour"). */
const VOWEL_SOUND = /^(?:hour|honest|honou?r|heir)/i;
/** Letters whose name starts with a vowel sound, for initialisms read letter by letter ("an MCP tool", "an SSE stream"). */
const VOWEL_LETTER_NAMES = new Set('AEFHILMNORSX');

/** "a" or "an", as it goes before `word`. */
export function articleFor(word: string): 'a' | 'an' {
	const first = word.trimStart();
	if (first === '') {
		return 'a';
	}
	if (/^[A-Z]{2,4}(?![a-z])/.test(first)) {
		return VOWEL_LETTER_NAMES.has(first.charAt(0)) ? 'an' : 'a';
	}
	if (VOWEL_SOUND.test(first)) {
		return 'an';
	}
	if (CONSONANT_SOUND.test(first)) {
		return 'a';
	}
	return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** `word` with its indefinite article: "an Edit", "a Read", "an object". */
export function withArticle(word: string): string {
	return `${articleFor(word)} ${word}`;
}

/** A count and its noun: "1 file", "2 files", "1,024 bytes" (`nouns` for an irregular plural). */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
	return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
