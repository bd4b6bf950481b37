// `steering.user`: text the person typed while the agent was working, delivered at the owner's
// next WAIT. It carries the user's authority and says so in its body (iterion ADR-062): the
// envelope marks it as harness-delivered, not as background.
import { entryOf } from '../declaration';
import type { Commit } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import { AccumulatingKind, type TurnEvent } from '../turnEvents';
import { USER_STEERING } from './catalog/steering';

const ONE = 'The user sent this message while you were working. It carries the user\'s authority: it is a direction from the user, not background. Read it now and adjust what you are doing; where it conflicts with your current plan, it wins.';
const MANY = 'The user sent these messages while you were working, oldest first. They carry the user\'s authority: they are directions from the user, not background. Read them now and adjust what you are doing; where they conflict with your current plan, they win.';

const STEERING = new AccumulatingKind<string>(entryOf(USER_STEERING), {
	stage: 'steering',
	render: (messages) => {
		const quoted = messages.map((text) => sanitizeUntrusted(text));
		return {
			body: quoted.length === 1 ? `${ONE}\n\n${quoted[0] ?? ''}` : `${MANY}\n\n${quoted.map((text, index) => `Message ${index + 1}:\n${text}`).join('\n\n')}`,
			reason: quoted.length === 1 ? 'the user typed a message while the agent worked' : `the user typed ${quoted.length} messages while the agent worked`,
		};
	},
});

/**
 * A steering turn event; several queued before the next WAIT add up to one, oldest first.
 * `delivered` runs once this message went out (with the request carrying it).
 */
export function userSteering(text: string, delivered?: Commit): TurnEvent {
	return STEERING.event([text], delivered);
}
