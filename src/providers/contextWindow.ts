// How big the model's context window is, and where that came from. In order: the
// `aside.contextWindow` setting, what the provider's API or server says (asked once per provider,
// origin and model, in the background and within a time limit), the table of known hosted
// models, or unknown. A probe that fails is "unknown", logged at debug level, never an error.
import { errorMessage } from '../base/errors';
import { Emitter, type Event } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { knownContextWindow } from './knownWindows';

/** What a provider's API or server said about one model's window. */
export interface DiscoveredWindow {
	/** The window in tokens; absent when the server did not say. */
	readonly tokens?: number;
	/**
	 * False when the answer may change after the next request: the model was not loaded yet (so
	 * the server's default was assumed), or the server could not be reached or refused the key.
	 */
	readonly settled: boolean;
	/** Where the number came from, for the log: "Ollama /api/ps". */
	readonly source: string;
	/** What was tried and what each probe answered, for the debug log. */
	readonly detail?: string;
}

export type WindowProbe = (signal: AbortSignal) => Promise<DiscoveredWindow | undefined>;

export type WindowSource = 'setting' | 'server' | 'table';

export interface EffectiveWindow {
	readonly tokens: number;
	readonly source: WindowSource;
}

export function isWindow(tokens: number | undefined): tokens is number {
	return tokens !== undefined && Number.isInteger(tokens) && tokens > 0;
}

/** The window to use: the setting (when > 0) over what the server said over the known table. */
export function effectiveContextWindow(setting: number, discovered: number | undefined, model: string): EffectiveWindow | undefined {
	if (isWindow(setting)) {
		return { tokens: setting, source: 'setting' };
	}
	if (isWindow(discovered)) {
		return { tokens: discovered, source: 'server' };
	}
	const known = knownContextWindow(model);
	return known === undefined ? undefined : { tokens: known, source: 'table' };
}

/** The cache key: one answer per provider, origin and model (a path on the same server does not change it). */
export function windowKey(provider: string, baseUrl: string, model: string): string {
	let origin = baseUrl;
	try {
		origin = new URL(baseUrl).origin;
	} catch {
		// Not a URL (vscode.lm): the text is the key.
	}
	return `${provider} ${origin} ${model}`;
}

interface Entry {
	answer: DiscoveredWindow | undefined;
	running: boolean;
}

export interface ContextWindowsOptions {
	readonly log: Logger;
	/** How long one discovery may take in all; then it is "unknown" (asked again after the next request). */
	readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The answers of the providers' servers, per key. Nothing here waits for a server: `known` reads
 * what was learned, `discover` starts asking once, and `onDidChange` fires when a window was
 * learned or changed.
 */
export class ContextWindows extends Disposable {
	private readonly entries = new Map<string, Entry>();
	private readonly running = new Set<Promise<void>>();
	private readonly controllers = new Set<AbortController>();
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;

	constructor(private readonly options: ContextWindowsOptions) {
		super();
		this._register(toDisposable(() => {
			for (const controller of this.controllers) {
				controller.abort();
			}
		}));
	}

	/** The window the server said for this key, if it said one yet. */
	known(key: string): number | undefined {
		const tokens = this.entries.get(key)?.answer?.tokens;
		return isWindow(tokens) ? tokens : undefined;
	}

	/** A window the model list carried: settled, and nothing more to ask. */
	remember(key: string, tokens: number, source: string): void {
		const entry = this.entries.get(key);
		if (entry?.running || !isWindow(tokens)) {
			return;
		}
		this.settle(key, { tokens, settled: true, source }, entry?.answer?.tokens);
	}

	/** Starts asking for this key unless it was asked already or is being asked. Never waits. */
	discover(key: string, probe: WindowProbe): void {
		if (this.entries.has(key)) {
			return;
		}
		this.start(key, probe);
	}

	/** A request just finished: an answer that could change (a default before the model loaded) is asked again. */
	requestFinished(key: string, probe: WindowProbe): void {
		const entry = this.entries.get(key);
		if (entry && !entry.running && entry.answer && !entry.answer.settled) {
			this.start(key, probe);
		}
	}

	/** Resolves once no discovery is running (for tests and shutdown). */
	async idle(): Promise<void> {
		while (this.running.size > 0) {
			await Promise.allSettled([...this.running]);
		}
	}

	private start(key: string, probe: WindowProbe): void {
		const entry: Entry = this.entries.get(key) ?? { answer: undefined, running: false };
		entry.running = true;
		this.entries.set(key, entry);
		const task = this.ask(key, entry, probe).finally(() => {
			this.running.delete(task);
		});
		this.running.add(task);
	}

	private async ask(key: string, entry: Entry, probe: WindowProbe): Promise<void> {
		const { log } = this.options;
		const controller = new AbortController();
		this.controllers.add(controller);
		const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		const timer = setTimeout(() => {
			controller.abort();
		}, timeoutMs);
		let answer: DiscoveredWindow;
		try {
			answer = (await probe(controller.signal)) ?? { settled: true, source: 'nothing' };
		} catch (error) {
			const reason = controller.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : errorMessage(error);
			answer = { settled: false, source: 'nothing', detail: reason };
		} finally {
			clearTimeout(timer);
			this.controllers.delete(controller);
		}
		entry.running = false;
		if (this.store.isDisposed) {
			return;
		}
		const before = entry.answer?.tokens;
		if (isWindow(answer.tokens)) {
			this.settle(key, answer, before);
			return;
		}
		entry.answer = answer;
		log.debug(`Context window of ${describeKey(key)}: the server did not say${answer.detail ? ` (${answer.detail})` : ''}${answer.settled ? '' : '; asking again after the next request'}.`);
		if (isWindow(before)) {
			this._onDidChange.fire();
		}
	}

	private settle(key: string, answer: DiscoveredWindow, before: number | undefined): void {
		const entry = this.entries.get(key) ?? { answer: undefined, running: false };
		entry.answer = answer;
		this.entries.set(key, entry);
		if (answer.tokens !== before) {
			this.options.log.info(`Context window of ${describeKey(key)}: ${answer.tokens ?? 0} tokens (${answer.source}${answer.settled ? '' : ', until the model is loaded'}).`);
			this._onDidChange.fire();
		}
	}
}

function describeKey(key: string): string {
	const [provider = '', origin = '', ...model] = key.split(' ');
	return `${model.join(' ')} (${provider}, ${origin})`;
}
