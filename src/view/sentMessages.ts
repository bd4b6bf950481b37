// The messages this view's composer sent lately: what the agent gives back (a hook blocked it, a
// Stop came first) goes back to the composer only if the person typed it here — a message the API
// sent has no composer.
import type { HostMessage } from '../protocol/messages';
import type { ReturnedMessage } from './controls';

/** How many of its latest messages a composer can be given back (steering typed during a long turn included). */
const MAX_REMEMBERED = 32;

type ComposerRestore = Omit<Extract<HostMessage, { type: 'composer.restore' }>, 'seq'>;

export class SentMessages {
	private readonly texts: string[] = [];

	sent(text: string): void {
		this.texts.push(text);
		this.texts.splice(0, Math.max(0, this.texts.length - MAX_REMEMBERED));
	}

	/** The `composer.restore` for those of `returned` this composer sent (each once), or undefined when it sent none. */
	giveBack({ texts, reason, cause, sessionId }: ReturnedMessage): ComposerRestore | undefined {
		const mine = texts.filter((text) => {
			const at = this.texts.lastIndexOf(text);
			return at >= 0 && this.texts.splice(at, 1).length > 0;
		});
		return mine.length === 0 ? undefined : { type: 'composer.restore', text: mine.join('\n\n'), reason: reason.slice(0, 2000), cause, ...(sessionId === undefined ? {} : { sessionId }) };
	}
}
