// A shell command line as the permission rules see it: the simple commands it chains, so that a
// rule allowing `npm test*` never allows `npm test && rm -rf /`. Not a shell parser: it knows
// quotes, escapes, the operators that chain commands (&&, ||, ;, |, |&, &, newlines, parentheses)
// and the constructs that run or write something a rule cannot see (command and process
// substitution, output redirected to a file). Whatever it cannot account for makes the line
// one no allow rule covers, never one that is allowed by mistake.

export interface CommandLine {
	/** The simple commands, in order, each trimmed with its runs of unquoted whitespace made one space. */
	readonly parts: readonly string[];
	/** Why no allow rule may cover the line (it runs or writes something its parts do not show), when so. */
	readonly unallowable?: string;
}

interface Frame {
	text: string;
	quote: '' | "'" | '"';
	/** What ends this frame: a substitution's `)` or backtick; '' for the line itself. */
	readonly closer: '' | ')' | '`';
	/** Parentheses opened inside a `$(…)` frame, so its own `)` is told from theirs. */
	depth: number;
}

const SEPARATOR_CHARS = new Set([';', '\n', '\r', '(', ')']);
const WORD_END = /[\s;&|()<>`]/;

export function splitCommandLine(line: string): CommandLine {
	const parts: string[] = [];
	const reasons: string[] = [];
	const unallowable = (reason: string): void => {
		if (!reasons.includes(reason)) {
			reasons.push(reason);
		}
	};
	const stack: Frame[] = [{ text: '', quote: '', closer: '', depth: 0 }];
	const top = (): Frame => stack[stack.length - 1] as Frame;
	const endPart = (): void => {
		const frame = top();
		const part = frame.text.trim();
		if (part !== '') {
			parts.push(part);
		}
		frame.text = '';
	};
	const openSubstitution = (closer: ')' | '`', shown: string): void => {
		unallowable('it runs a command substitution');
		top().text += shown;
		stack.push({ text: '', quote: '', closer, depth: 0 });
	};
	const closeSubstitution = (): void => {
		endPart();
		stack.pop();
	};

	for (let i = 0; i < line.length; i++) {
		const c = line[i] as string;
		const next = line[i + 1];
		const frame = top();
		if (frame.quote === "'") {
			frame.text += c;
			if (c === "'") {
				frame.quote = '';
			}
			continue;
		}
		if (c === '\\') {
			frame.text += c + (next ?? '');
			i++;
			continue;
		}
		if (c === '$' && next === '(') {
			// `$((…))` is arithmetic, but may hold a substitution too: treated the same.
			openSubstitution(')', '$(…)');
			i++;
			continue;
		}
		if (c === '`') {
			if (frame.closer === '`' && frame.quote === '') {
				closeSubstitution();
			} else {
				openSubstitution('`', '`…`');
			}
			continue;
		}
		if (frame.quote === '"') {
			frame.text += c;
			if (c === '"') {
				frame.quote = '';
			}
			continue;
		}
		if (c === "'" || c === '"') {
			frame.quote = c;
			frame.text += c;
			continue;
		}
		if ((c === '<' || c === '>') && next === '(') {
			unallowable('it runs a process substitution');
			openSubstitution(')', `${c}(…)`);
			i++;
			continue;
		}
		if (c === ')' && frame.closer === ')' && frame.depth === 0) {
			closeSubstitution();
			continue;
		}
		if (SEPARATOR_CHARS.has(c)) {
			if (frame.closer === ')') {
				frame.depth += c === '(' ? 1 : c === ')' ? -1 : 0;
			}
			endPart();
			continue;
		}
		if (c === '&' && next === '>') {
			i = redirection(line, i + 1, frame, unallowable, '&');
			continue;
		}
		if (c === '&' || c === '|') {
			// &&, ||, |&, a pipe, or a command sent to the background: each ends a command.
			if (next === c || (c === '|' && next === '&')) {
				i++;
			}
			endPart();
			continue;
		}
		if (c === '>') {
			i = redirection(line, i, frame, unallowable, '');
			continue;
		}
		if (/\s/.test(c)) {
			if (!frame.text.endsWith(' ')) {
				frame.text += ' ';
			}
			continue;
		}
		frame.text += c;
	}
	if (stack.some((frame) => frame.quote !== '') || stack.length > 1) {
		unallowable('it has an unclosed quote or substitution');
	}
	while (stack.length > 0) {
		endPart();
		stack.pop();
	}
	return reasons.length > 0 ? { parts, unallowable: reasons.join('; ') } : { parts };
}

/**
 * An output redirection starting at `line[at]` (the `>`): `>file`, `>>file`, `>|file`, `>&2`,
 * `2>&1`, `&>file`. Duplicating a descriptor or writing to /dev/null changes no file; anything
 * else writes a file no rule can see. Returns the index of its last character.
 */
function redirection(line: string, at: number, frame: Frame, unallowable: (reason: string) => void, prefix: string): number {
	let i = at + 1;
	let operator = `${prefix}>`;
	if (line[i] === '>' || line[i] === '|') {
		operator += line[i] as string;
		i++;
	}
	let duplicate = false;
	if (line[i] === '&' && prefix === '') {
		operator += '&';
		duplicate = true;
		i++;
	}
	while (line[i] === ' ' || line[i] === '\t') {
		i++;
	}
	let target = '';
	while (i < line.length && !WORD_END.test(line[i] as string)) {
		target += line[i] as string;
		i++;
	}
	if (!((duplicate && /^(\d+|-)$/.test(target)) || target === '/dev/null')) {
		unallowable(`it writes output to a file (${operator}${target})`);
	}
	frame.text += `${operator}${target}`;
	return i - 1;
}

const RESERVED_WORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'time']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The command a part runs, for deny and ask rules: without the shell's reserved words and the
 * variable assignments before it (`FOO=1 rm -rf x` runs `rm -rf x`). Allow rules match the part as
 * it is: `PATH=… npm test` may not run the npm a rule had in mind.
 */
export function commandOfPart(part: string): string {
	const words = wordsOf(part);
	let start = 0;
	while (start < words.length && (RESERVED_WORDS.has(words[start]?.text as string) || ASSIGNMENT.test(words[start]?.text as string))) {
		start++;
	}
	const first = words[start];
	return first === undefined ? '' : part.slice(first.at);
}

/** The words of a part (split at unquoted spaces), each with where it starts. */
function wordsOf(part: string): { readonly text: string; readonly at: number }[] {
	const words: { text: string; at: number }[] = [];
	let quote = '';
	let current: { text: string; at: number } | undefined;
	for (let i = 0; i < part.length; i++) {
		const c = part[i] as string;
		if (quote === '' && c === ' ') {
			current = undefined;
			continue;
		}
		if (!current) {
			current = { text: '', at: i };
			words.push(current);
		}
		current.text += c;
		if (c === '\\' && quote !== "'") {
			current.text += part[i + 1] ?? '';
			i++;
		} else if (quote === '' && (c === "'" || c === '"')) {
			quote = c;
		} else if (c === quote) {
			quote = '';
		}
	}
	return words;
}
