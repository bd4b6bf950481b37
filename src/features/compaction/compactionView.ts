// The person's compaction in the view: the context meter's Compact (`compaction.run`) and `/compact`
// typed as the whole message. Why the chat was not compacted is said in the chat.
import { errorMessage } from '../../base/errors';
import { type IDisposable, toDisposable } from '../../base/lifecycle';
import type { ViewMessage } from '../../protocol/messages';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { SlashCommand } from '../../view/slashCommands';
import { type ChatCompaction, compactCommand } from './manualCompaction';

export class CompactionPart implements FeatureViewPart, IDisposable {
	readonly id = 'compaction';
	readonly commands: readonly SlashCommand[] = [
		{
			name: '/compact',
			args: '[what to keep]',
			summary: 'compact the chat now',
			run: (text, view) => {
				this.compact(compactCommand(text)?.instructions, view);
			},
		},
	];

	/** `compaction`: the current chat's. */
	constructor(private readonly compaction: () => Pick<ChatCompaction, 'compact'>) {}

	connect(): IDisposable {
		// It says nothing of its own accord: only in answer to the person.
		return toDisposable(() => undefined);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		if (message.type === 'compaction.run') {
			this.compact(message.instructions, view);
		}
	}

	private compact(instructions: string | undefined, view: FeatureViewPort): void {
		this.compaction().compact(instructions).then(
			(refused) => {
				if (refused !== undefined) {
					view.notice('warning', refused);
				}
			},
			(error: unknown) => {
				view.notice('error', `Could not compact the chat: ${errorMessage(error)}`);
			},
		);
	}

	dispose(): void {
		// Nothing held: the compaction itself belongs to the agent's chat.
	}
}
