// One command through VS Code's shell integration (docs/tools.md, "Where commands run"), over the
// API's shapes so it runs in tests without VS Code: when a command goes to the child-process
// fallback instead, and how its output is read without the API's known failure modes reaching the
// person —
// - output lost on a cold shell: `read()` is called at once, and again at the start event; the
//   first stream that delivers is the one kept (the other would repeat it);
// - a `read()` that never closes: after the end event, a short drain, then done;
// - no exit code reported: undefined ("unknown"), never guessed.

/** Why a command runs as a child process instead of in the terminal (said once per chat and reason: run.shell-integration). */
export type FallbackReason = 'terminal-off' | 'no-integration' | 'multi-line' | 'nested-shell';

export const FALLBACK_WORDS: Readonly<Record<FallbackReason, string>> = {
	'terminal-off': 'aside.run.terminal is "off", so commands run as child processes of VS Code, outside any terminal',
	'no-integration': 'the terminal\'s shell integration did not start in time (aside.run.shellIntegrationTimeoutMs), so Aside could not see where the command ends; it ran as a child process instead',
	'multi-line': 'a command of several lines (or a here-document, or a line continued with \\) never reports its end through shell integration; it ran as a child process instead',
	'nested-shell': 'the command starts another interactive shell, which never reports an end through shell integration; it ran as a child process instead',
};

/** Commands that replace the shell or start an interactive one: no end is ever reported for them. */
const NESTED: readonly RegExp[] = [
	// exec replaces the shell the integration runs in.
	/^exec\b/u,
	// A shell with no script or command: bash, zsh -l, pwsh, sudo -i, sudo su, su (not su -c).
	/^(?:sudo\s+)?(?:sh|bash|zsh|fish|dash|ksh|tcsh|csh|pwsh|powershell|nu)(?:\s+-[a-z]+)*\s*$/iu,
	/^sudo\s+(?:-[is]|su\b)(?:\s+-\S*)*\s*$/u,
	/^su(?:\s+-\S*)*(?:\s+\w+)?\s*$/u,
	// A remote shell: ssh with a host and no command.
	/^ssh(?:\s+-\S+(?:\s+\S+)?)*\s+[\w.@-]+\s*$/u,
];

/** The reason `command` cannot go through shell integration, or undefined when it can. */
export function commandFallback(command: string): FallbackReason | undefined {
	const text = command.trim();
	if (/\r|\n/u.test(text) || /\\$/u.test(text) || /<<-?\s*['"]?\w+/u.test(text)) {
		return 'multi-line';
	}
	return NESTED.some((pattern) => pattern.test(text)) ? 'nested-shell' : undefined;
}

export interface ExecutionLike {
	read(): AsyncIterable<string>;
}

export interface CollectOptions {
	/** After the end event, how long a stream that has not closed may still deliver. */
	readonly drainMs: number;
	/** Resolves when the execution starts (the API's start event), for the second read. */
	readonly started?: Promise<void>;
}

const delay = (ms: number): Promise<void> =>
	new Promise((resolve) => {
		setTimeout(resolve, ms);
	});

/**
 * Reads `execution` until `ended` (its exit code, undefined when none was reported) and a drain:
 * each chunk goes to `onData` from the one stream that delivered first.
 */
export async function collectExecution(
	execution: ExecutionLike,
	ended: Promise<number | undefined>,
	onData: (chunk: string) => void,
	options: CollectOptions,
): Promise<number | undefined> {
	let winner: number | undefined;
	let finished = false;
	const pump = async (source: number, stream: AsyncIterable<string>): Promise<void> => {
		try {
			for await (const chunk of stream) {
				if (finished) {
					return;
				}
				if (chunk === '') {
					continue;
				}
				winner ??= source;
				if (winner === source) {
					onData(chunk);
				}
			}
		} catch {
			// A stream that fails delivers nothing more; the other, or the drain, ends the read.
		}
	};
	const pumps = [pump(0, execution.read())];
	void options.started?.then(() => {
		if (winner === undefined && !finished) {
			pumps.push(pump(1, execution.read()));
		}
	});
	const code = await ended;
	await Promise.race([Promise.all(pumps), delay(options.drainMs)]);
	finished = true;
	return code;
}
