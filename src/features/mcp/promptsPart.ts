// The MCP feature's part of the view: the connected servers' prompts as slash commands that come
// and go with them (promptCommands.ts), and what could not be one said in the chat, once.
import { Emitter, type Event } from '../../base/event';
import { Disposable, type IDisposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { SlashCommand, SlashCommandSource } from '../../view/slashCommands';
import { type PromptCatalog, type PromptCommandSet, promptCommands } from './promptCommands';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** The window's MCP prompts (nothing in Restricted Mode); absent where the window has none. */
		readonly mcpPrompts?: PromptCatalog;
	}
}

export class McpPromptsPart extends Disposable implements FeatureViewPart, SlashCommandSource {
	readonly id = 'mcp';
	readonly commandSource: SlashCommandSource = this;
	private readonly _onDidChange = this._register(new Emitter<void>());
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private set: PromptCommandSet = { commands: [], problems: [] };
	/** The problems said already: each once while it lasts. */
	private told = new Set<string>();
	private readonly views = new Set<FeatureViewPort>();
	/** Ends the prompts still being asked for when the window goes. */
	private readonly abort = new AbortController();

	constructor(
		catalog: PromptCatalog | undefined,
		private readonly log: Logger,
	) {
		super();
		if (!catalog) {
			return;
		}
		this.set = promptCommands(catalog, this.abort.signal);
		this.tell(this.set.problems);
		this._register(catalog.onDidChange(() => {
			this.set = promptCommands(catalog, this.abort.signal);
			this.tell(this.set.problems);
			this._onDidChange.fire();
		}));
	}

	current(): readonly SlashCommand[] {
		return this.set.commands;
	}

	connect(view: FeatureViewPort): IDisposable {
		this.views.add(view);
		return {
			dispose: () => {
				this.views.delete(view);
			},
		};
	}

	private tell(problems: readonly string[]): void {
		for (const problem of problems) {
			if (!this.told.has(problem)) {
				this.log.warn(problem);
				for (const view of this.views) {
					view.notice('warning', problem);
				}
			}
		}
		this.told = new Set(problems);
	}

	override dispose(): void {
		this.abort.abort();
		super.dispose();
	}
}
