// How a slash command's arguments are written (docs/usage.md#slash-commands), read the same way by
// the host, which runs the command, and by the composer, which completes the argument under the
// caret: words in the declared order; a value with spaces in quotes ("New York" or 'New York', with
// \" and \\ inside double quotes); `name=value` for a declared argument, anywhere. The words fill
// the arguments not named, in order, and the last of them takes the rest of the line.

/** An argument as a command declares it. */
export interface DeclaredArgument {
	readonly name: string;
	readonly required: boolean;
}

interface Word {
	/** Where it starts (its `name=` included) and ends in the text. */
	readonly start: number;
	readonly end: number;
	/** Where its value starts (after `name=`). */
	readonly valueStart: number;
	readonly value: string;
	/** `name=value`: the declared argument it names. */
	readonly name?: string;
	/** It opens a quote the text does not close (the value then runs to the end). */
	readonly open: boolean;
}

const SPACE = /\s/u;

function quoted(text: string, from: number): { readonly value: string; readonly end: number; readonly open: boolean } {
	const quote = text[from];
	let value = '';
	let at = from + 1;
	while (at < text.length) {
		const char = text[at] ?? '';
		if (char === quote) {
			return { value, end: at + 1, open: false };
		}
		const next = text[at + 1];
		if (quote === '"' && char === '\\' && (next === '"' || next === '\\')) {
			value += next;
			at += 2;
			continue;
		}
		value += char;
		at++;
	}
	return { value, end: at, open: true };
}

/** The words of `text`; `names`: the declared arguments, which `name=` may name. */
function wordsOf(text: string, names: ReadonlySet<string>): Word[] {
	const words: Word[] = [];
	let at = 0;
	while (at < text.length) {
		if (SPACE.test(text[at] ?? '')) {
			at++;
			continue;
		}
		const start = at;
		const named = /^([^\s="']+)=/u.exec(text.slice(at));
		const name = named?.[1] !== undefined && names.has(named[1]) ? named[1] : undefined;
		if (name !== undefined && named) {
			at += named[0].length;
		}
		const valueStart = at;
		let value = '';
		let open = false;
		if (text[at] === '"' || text[at] === '\'') {
			({ value, end: at, open } = quoted(text, at));
		}
		// A quote inside a word is the word's (`don't`); what follows a closing quote up to a space too.
		while (!open && at < text.length && !SPACE.test(text[at] ?? '')) {
			value += text[at] ?? '';
			at++;
		}
		words.push({ start, end: at, valueStart, value, open, ...(name === undefined ? {} : { name }) });
	}
	return words;
}

export interface ParsedArguments {
	/** Each argument given a non-empty value. */
	readonly values: Readonly<Record<string, string>>;
	/** The required arguments without one, in declared order. */
	readonly missing: readonly string[];
	/** Words nothing takes: the command declares no argument, or each was named. */
	readonly surplus: readonly string[];
}

function assign(words: readonly Word[], declared: readonly DeclaredArgument[]): { readonly values: Map<string, string>; readonly surplus: string[] } {
	const values = new Map<string, string>();
	const positional: string[] = [];
	for (const word of words) {
		if (word.name === undefined) {
			positional.push(word.value);
		} else {
			values.set(word.name, word.value);
		}
	}
	const free = declared.filter((argument) => !values.has(argument.name));
	free.forEach((argument, index) => {
		if (index < positional.length) {
			values.set(argument.name, index === free.length - 1 ? positional.slice(index).join(' ') : (positional[index] ?? ''));
		}
	});
	return { values, surplus: free.length === 0 ? positional : [] };
}

/** The arguments `text` (what follows the command's name) gives the command. */
export function parseArguments(text: string, declared: readonly DeclaredArgument[]): ParsedArguments {
	const { values, surplus } = assign(wordsOf(text, new Set(declared.map((argument) => argument.name))), declared);
	const given = [...values].filter(([, value]) => value !== '');
	const names = new Set(given.map(([name]) => name));
	return {
		values: Object.fromEntries(given),
		missing: declared.filter((argument) => argument.required && !names.has(argument.name)).map((argument) => argument.name),
		surplus,
	};
}

/** The argument being typed at the end of `before` (the arguments' text up to the caret). */
export interface ArgumentAtCaret {
	readonly name: string;
	/** Its value so far. */
	readonly value: string;
	/** Where the value's word starts in `before` (after a `name=`): a completion replaces from here to the caret. */
	readonly start: number;
	/** The other arguments given before it. */
	readonly context: Readonly<Record<string, string>>;
}

/**
 * The argument the caret is in; undefined past the last declared one (the rest of the line is not
 * completed) and for a command that declares none.
 */
export function argumentAt(before: string, declared: readonly DeclaredArgument[]): ArgumentAtCaret | undefined {
	const words = wordsOf(before, new Set(declared.map((argument) => argument.name)));
	const last = words.at(-1);
	// After a space (outside an open quote) a new, empty word begins.
	const current = last?.end === before.length ? last : undefined;
	const earlier = current ? words.slice(0, -1) : words;
	const named = new Set(earlier.flatMap((word) => (word.name === undefined ? [] : [word.name])));
	let argument: string | undefined = current?.name;
	if (argument === undefined) {
		const free = declared.filter((candidate) => !named.has(candidate.name));
		argument = free[earlier.filter((word) => word.name === undefined).length]?.name;
	}
	if (argument === undefined) {
		return undefined;
	}
	const { values } = assign(earlier, declared);
	values.delete(argument);
	return {
		name: argument,
		value: current?.value ?? '',
		start: current?.valueStart ?? before.length,
		context: Object.fromEntries([...values].filter(([, value]) => value !== '')),
	};
}

/** `value` as one word: as it is when it can be, else in double quotes. */
export function quoteArgument(value: string): string {
	return value !== '' && !/[\s"'=\\]/u.test(value) ? value : `"${value.replace(/["\\]/gu, '\\$&')}"`;
}

/** How the arguments are written in the command's hint: `<city> [state]`. */
export function argumentsHint(declared: readonly DeclaredArgument[]): string {
	return declared.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(' ');
}
