// What the person runs from outside the chat: Aside's commands, the README command, and the diff
// editor's title-bar Accept / Reject of a change under review.
import { registerCommands } from '../commands';
import { registerReadmeCommand } from '../readme';
import type { WindowContribution } from './window';

export const reviewDecisions: WindowContribution = {
	name: 'review decisions',
	contribute: ({ review, agent }, store) => {
		// The title-bar Accept / Reject decide as the card does (without a note).
		store.add(review.onDidDecide(({ callId, granted }) => {
			agent.approve(callId, granted, undefined);
		}));
	},
};

export const commands: WindowContribution = {
	name: 'commands',
	contribute: ({ sessions, library, agent, api, chatView, log, gate, keys, probe, configuration }, store) => {
		const current = () => ({ provider: configuration.current.provider, baseUrl: configuration.current.baseUrl });
		store.add(
			registerCommands({
				sessions,
				library,
				agent,
				api,
				chatView,
				log,
				gate,
				providers: { keys, detect: () => probe.detect(), ports: probe.ports, current, log },
			}),
		);
	},
};

export const readmeCommand: WindowContribution = {
	name: 'README command',
	contribute: ({ context }, store) => {
		store.add(registerReadmeCommand(context.extensionUri));
	},
};
