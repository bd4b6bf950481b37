// The few languages the code-block highlighter knows, by fence name. Data only: the scanner in
// highlight.ts reads these flags, so adding a language never adds a regular expression.

/** A language scanned word by word: comments, strings, numbers, keywords. */
export interface WordGrammar {
	readonly kind: 'words';
	readonly lineComments: readonly string[];
	readonly blockComment?: readonly [string, string];
	/** A line comment only where a word could start (shell and YAML `#`, not `a#b`). */
	readonly commentAfterSpace?: boolean;
	/** Quote characters that open a string. */
	readonly quotes: string;
	/** Of those, the ones whose strings may span lines. */
	readonly multilineQuotes?: string;
	/** Python's `"""` and `'''`. */
	readonly tripleQuotes?: boolean;
	/** Rust: `'` opens only a char literal (`'a'`, `'\n'`), never a lifetime (`'a`). */
	readonly charQuoteOnly?: boolean;
	readonly keywords: ReadonlySet<string>;
	readonly types?: ReadonlySet<string>;
	/** A capitalised word is a type name (Java, C#, TypeScript, Rust). */
	readonly capitalTypes?: boolean;
	/** A word right before `(` is a function. */
	readonly calls?: boolean;
	/** A word right before `: ` or a line end is a key (YAML keys, CSS properties). */
	readonly keyColon?: boolean;
	/** A string right before `:` is a key (JSON). */
	readonly stringKeys?: boolean;
	/** Characters besides letters, digits and `_` inside a word. */
	readonly wordChars?: string;
	/** `$NAME` and `${NAME}` are variables (shell). */
	readonly dollarVariables?: boolean;
	/** `@media`-style at-words are keywords (CSS). */
	readonly atKeywords?: boolean;
	/** `#include`-style directives at a line start are keywords (C family). */
	readonly directives?: boolean;
}

export type Grammar = WordGrammar | { readonly kind: 'markup' } | { readonly kind: 'diff' };

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

const JS_KEYWORDS =
	'abstract as async await break case catch class const continue debugger declare default delete do else enum export extends false finally for from function get if implements import in infer instanceof interface is keyof let namespace new null of private protected public readonly return satisfies set static super switch this throw true try type typeof undefined var void while with yield';

const C_KEYWORDS =
	'abstract as async auto await base bool boolean break byte case catch char class const constexpr continue default delete do double else enum explicit extends extern false final finally float for foreach friend goto if implements import in inline instanceof int interface internal is lock long namespace new null nullptr object operator out override package params private protected public readonly record ref register return sealed short signed sizeof static string struct super switch synchronized template this throw throws true try typedef typename union unsigned using var virtual void volatile where while yield';

const js: WordGrammar = {
	kind: 'words',
	lineComments: ['//'],
	blockComment: ['/*', '*/'],
	quotes: '"\'`',
	multilineQuotes: '`',
	keywords: words(JS_KEYWORDS),
	types: words('any bigint boolean never number object string symbol unknown'),
	capitalTypes: true,
	calls: true,
	wordChars: '$',
};

const json: WordGrammar = { kind: 'words', lineComments: ['//'], blockComment: ['/*', '*/'], quotes: '"', keywords: words('true false null'), stringKeys: true };

const python: WordGrammar = {
	kind: 'words',
	lineComments: ['#'],
	quotes: '"\'',
	tripleQuotes: true,
	keywords: words(
		'False None True and as assert async await break case class continue def del elif else except finally for from global if import in is lambda match nonlocal not or pass raise return self try while with yield',
	),
	types: words('bool bytes dict float int list object set str tuple'),
	calls: true,
};

const shell: WordGrammar = {
	kind: 'words',
	lineComments: ['#'],
	commentAfterSpace: true,
	quotes: '"\'',
	multilineQuotes: '"\'',
	keywords: words('alias case cd declare do done echo elif else esac exit export fi for function if in local readonly return set shift source then trap unset until while'),
	dollarVariables: true,
	wordChars: '-',
};

const css: WordGrammar = {
	kind: 'words',
	lineComments: [],
	blockComment: ['/*', '*/'],
	quotes: '"\'',
	keywords: words('important inherit initial unset revert none auto'),
	keyColon: true,
	atKeywords: true,
	calls: true,
	wordChars: '-',
};

const rust: WordGrammar = {
	kind: 'words',
	lineComments: ['//'],
	blockComment: ['/*', '*/'],
	quotes: '"\'',
	multilineQuotes: '"',
	charQuoteOnly: true,
	keywords: words(
		'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while',
	),
	types: words('bool char f32 f64 i8 i16 i32 i64 i128 isize str u8 u16 u32 u64 u128 usize'),
	capitalTypes: true,
	calls: true,
};

const go: WordGrammar = {
	kind: 'words',
	lineComments: ['//'],
	blockComment: ['/*', '*/'],
	quotes: '"\'`',
	multilineQuotes: '`',
	keywords: words('break case chan const continue default defer else fallthrough false for func go goto if import interface iota map nil package range return select struct switch true type var'),
	types: words('any bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr'),
	calls: true,
};

const cLike: WordGrammar = {
	kind: 'words',
	lineComments: ['//'],
	blockComment: ['/*', '*/'],
	quotes: '"\'',
	keywords: words(C_KEYWORDS),
	capitalTypes: true,
	calls: true,
	directives: true,
};

const yaml: WordGrammar = {
	kind: 'words',
	lineComments: ['#'],
	commentAfterSpace: true,
	quotes: '"\'',
	keywords: words('true false null yes no on off True False Null'),
	keyColon: true,
	wordChars: '-.',
};

const markup = { kind: 'markup' } as const;
const diff = { kind: 'diff' } as const;

const BY_NAME = new Map<string, Grammar>([
	...['ts', 'typescript', 'js', 'javascript', 'jsx', 'tsx', 'mjs', 'cjs', 'mts', 'cts'].map((name) => [name, js] as const),
	...['json', 'jsonc', 'json5'].map((name) => [name, json] as const),
	...['python', 'py', 'python3'].map((name) => [name, python] as const),
	...['sh', 'bash', 'shell', 'zsh', 'console', 'shellscript'].map((name) => [name, shell] as const),
	...['css', 'scss', 'less'].map((name) => [name, css] as const),
	...['html', 'htm', 'xml', 'xhtml', 'svg', 'vue'].map((name) => [name, markup] as const),
	...['rust', 'rs'].map((name) => [name, rust] as const),
	...['go', 'golang'].map((name) => [name, go] as const),
	...['java', 'c', 'h', 'cpp', 'c++', 'cc', 'hpp', 'cs', 'csharp', 'c#', 'kotlin', 'kt'].map((name) => [name, cLike] as const),
	...['yaml', 'yml'].map((name) => [name, yaml] as const),
	...['diff', 'patch'].map((name) => [name, diff] as const),
]);

/** The grammar for a fence's language name; undefined (no highlighting) for any other. */
export function grammarFor(language: string): Grammar | undefined {
	return BY_NAME.get(language.toLowerCase());
}
