// The MCP feature's one view part (`mcp`): the servers' prompts as slash commands (promptsPart.ts),
// the server list (serverList.ts) and the cards of the servers' requests (requestCards.ts), composed.
// The prompts say nothing to the webview but notices; the list's and the cards' messages, both ways, are `mcp.*`.
import { Disposable, DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { SlashCommandSource } from '../../view/slashCommands';
import type { McpPromptsPart } from './promptsPart';
import type { McpServerList } from './serverList';
import type { McpRequestCards } from './requestCards';

export class McpViewPart extends Disposable implements FeatureViewPart {
	readonly id = 'mcp';
	readonly commandSource: SlashCommandSource;

	constructor(
		private readonly prompts: McpPromptsPart,
		private readonly list: McpServerList,
		private readonly cards: McpRequestCards,
	) {
		super();
		this._register(prompts);
		this._register(list);
		this._register(cards);
		this.commandSource = prompts.commandSource;
	}

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		store.add(this.prompts.connect(view));
		store.add(this.list.connect(view));
		store.add(this.cards.connect(view));
		return store;
	}

	shown(view: FeatureViewPort): void {
		this.list.shown(view);
		this.cards.shown(view);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		this.list.receive(message, view);
		this.cards.receive(message, view);
	}
}
