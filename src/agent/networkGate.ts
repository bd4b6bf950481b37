// Restricted Mode: in a workspace the person has not trusted, Aside contacts no model server at
// all — no model list, no probe for local servers, no turn — until the person acts (sends a
// message, clicks an action) or trusts the workspace. The gate is the one place that decides.
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { ModelInfo } from '../providers/provider';
import type { ModelSource, ResolvedModel } from './ports';

/** VS Code's workspace trust, as the pure side sees it. */
export interface TrustSource {
	readonly isTrusted: boolean;
	readonly onDidGrantTrust: Event<void>;
}

export const RESTRICTED_DETAIL =
	'This workspace is in Restricted Mode: Aside contacts no model server until you send a message, choose a provider, or trust the workspace.';

export class NetworkGate extends Disposable {
	private allowed: boolean;
	private readonly _onDidOpen = this._register(new Emitter<void>());
	/** Fires once, when requests become allowed. */
	readonly onDidOpen: Event<void> = this._onDidOpen.event;

	constructor(
		trust: TrustSource,
		private readonly log: Logger,
	) {
		super();
		this.allowed = trust.isTrusted;
		this._register(trust.onDidGrantTrust(() => {
			this.allow('the workspace is trusted now');
		}));
	}

	get isOpen(): boolean {
		return this.allowed;
	}

	/** The person acted (or trusted the workspace): from now on Aside may contact servers. */
	allow(reason: string): void {
		if (this.allowed) {
			return;
		}
		this.allowed = true;
		this.log.info(`Aside may contact model servers now: ${reason}.`);
		this._onDidOpen.fire();
	}
}

/**
 * A ModelSource that asks nothing of the network while the gate is closed. VS Code's own chat
 * models are listed in-process, so they pass; a turn is the person acting, so it opens the gate.
 */
export class GatedModelSource extends Disposable implements ModelSource {
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly _onDidChangeContextWindow = this._register(new Emitter<void>());
	readonly onDidChangeContextWindow: Event<void> = this._onDidChangeContextWindow.event;

	constructor(
		private readonly inner: ModelSource,
		private readonly gate: NetworkGate,
	) {
		super();
		this._register(inner.onDidChange(() => {
			this._onDidChange.fire();
		}));
		this._register(gate.onDidOpen(() => {
			this._onDidChange.fire();
		}));
		if (inner.onDidChangeContextWindow) {
			this._register(inner.onDidChangeContextWindow(() => {
				this._onDidChangeContextWindow.fire();
			}));
		}
	}

	get providerId(): string {
		return this.inner.providerId;
	}

	get configuredModel(): string {
		return this.inner.configuredModel;
	}

	private get closed(): boolean {
		return !this.gate.isOpen && this.inner.providerId !== 'vscode-lm';
	}

	resolve(signal: AbortSignal): Promise<ResolvedModel> {
		this.gate.allow('you sent a message');
		return this.inner.resolve(signal);
	}

	listModels(signal: AbortSignal): Promise<{ readonly models: readonly ModelInfo[]; readonly problem?: string }> {
		if (this.closed) {
			return Promise.resolve({ models: [], problem: RESTRICTED_DETAIL });
		}
		return this.inner.listModels(signal);
	}

	selectModel(model: string): Promise<void> {
		return this.inner.selectModel(model);
	}

	/** What is known already: a lookup, never a request. */
	contextWindow(model: string): number | undefined {
		return this.inner.contextWindow?.(model);
	}

	/** Only after a request, so the gate is open: the source may ask about the window again. */
	requestFinished(resolved: ResolvedModel): void {
		this.inner.requestFinished?.(resolved);
	}
}
