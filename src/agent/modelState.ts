// What the agent knows of models: the catalogue for the picker (listed again whenever the model
// source changes), why nothing can answer, the model the last turn used, and the context window
// of the model a turn would use now.
import { errorMessage } from '../base/errors';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import { isWindow } from '../providers/contextWindow';
import type { ModelInfo } from '../providers/provider';
import type { ModelSource, ResolvedModel } from './ports';

/** How long listing the models may take before the picker gives up on it. */
const LIST_TIMEOUT_MS = 15_000;

export class ModelState extends Disposable {
	private listed: readonly ModelInfo[] = [];
	private why: string | undefined;
	/** The model the last turn used: its window is shown when no model is configured. */
	private used: ResolvedModel | undefined;

	constructor(
		private readonly source: ModelSource,
		/** Something the agent's state shows changed. */
		private readonly changed: () => void,
		private readonly log: Logger,
	) {
		super();
		this._register(source.onDidChange(() => {
			void this.refresh();
		}));
		if (source.onDidChangeContextWindow) {
			this._register(source.onDidChangeContextWindow(() => {
				this.changed();
			}));
		}
	}

	/** The models on offer, as last listed. */
	get models(): readonly ModelInfo[] {
		return this.listed;
	}

	/** Why nothing can answer, as the source said it; undefined when something can. */
	get problem(): string | undefined {
		return this.why;
	}

	/** A turn resolved `resolved`; the state changes when its model or window differs from the last. */
	use(resolved: ResolvedModel): void {
		const changed = resolved.model !== this.used?.model || resolved.contextWindow !== this.used.contextWindow;
		this.used = resolved;
		if (changed) {
			this.changed();
		}
	}

	/** The window of the model a turn would use now: the configured one, else the last used, else the provider's first. */
	contextWindow(): number | undefined {
		const model = this.source.configuredModel || this.used?.model || this.listed[0]?.id;
		return model === undefined ? undefined : this.windowOf(model);
	}

	/** What the model source knows now (it may learn more later); without that, what the model list or resolve said. */
	windowOf(model: string): number | undefined {
		const { source } = this;
		const window = source.contextWindow
			? source.contextWindow(model)
			: (this.listed.find((m) => m.id === model)?.contextWindow ?? (this.used?.model === model ? this.used.contextWindow : undefined));
		return isWindow(window) ? window : undefined;
	}

	/** The person picked a model: the source remembers it. */
	select(model: string): void {
		void this.source.selectModel(model).then(
			() => {
				this.changed();
			},
			(error: unknown) => {
				this.log.error(`Aside: could not select the model ${model}: ${errorMessage(error)}`);
			},
		);
	}

	/** Lists the models again (with a time limit), or says why there are none. */
	async refresh(): Promise<void> {
		const controller = new AbortController();
		const timer = setTimeout(() => {
			controller.abort();
		}, LIST_TIMEOUT_MS);
		try {
			const { models, problem } = await this.source.listModels(controller.signal);
			this.listed = models;
			this.why = problem;
		} catch (error) {
			this.listed = [];
			this.why = errorMessage(error);
		} finally {
			clearTimeout(timer);
		}
		this.changed();
	}
}
