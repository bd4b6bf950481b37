// The mode picker's part of the view: the person's choice becomes the current chat's mode, and the
// first time a chat enters full access the chat says once what that means.
import { type IDisposable, toDisposable } from '../../base/lifecycle';
import type { ChatMode } from '../../agent/chatFeature';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import { type CurrentChat, sayWhatFullAccessMeans } from '../../view/modeWarning';

export class ModePart implements FeatureViewPart, IDisposable {
	readonly id = 'mode';

	/** `mode`: the current chat's. */
	constructor(
		private readonly chats: CurrentChat,
		private readonly mode: () => ChatMode,
	) {}

	connect(): IDisposable {
		// The mode is said with the agent's state.
		return toDisposable(() => undefined);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		if (message.type === 'mode.select') {
			const mode = this.mode();
			sayWhatFullAccessMeans(this.chats, mode.current(), message.mode, (text) => {
				view.notice('warning', text);
			});
			mode.select(message.mode);
		}
	}

	dispose(): void {
		// Nothing held.
	}
}
