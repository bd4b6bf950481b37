// The MCP feature's one view part (`mcp`): the servers' prompts as slash commands (promptsPart.ts)
// and the server list (serverList.ts), composed. The prompts say nothing to the webview but notices;
// the list's messages, both ways, are `mcp.*`.
import { Disposable, DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { SlashCommandSource } from '../../view/slashCommands';
import type { McpPromptsPart } from './promptsPart';
import type { McpServerList } from './serverList';

export class McpViewPart extends Disposable implements FeatureViewPart {
	readonly id = 'mcp';
	readonly commandSource: SlashCommandSource;

	constructor(
		private readonly prompts: McpPromptsPart,
		private readonly list: McpServerList,
	) {
		super();
		this._register(prompts);
		this._register(list);
		this.commandSource = prompts.commandSource;
	}

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		store.add(this.prompts.connect(view));
		store.add(this.list.connect(view));
		return store;
	}

	shown(view: FeatureViewPort): void {
		this.list.shown(view);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		this.list.receive(message, view);
	}
}
