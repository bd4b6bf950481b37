// The composer's completion of a slash command's argument: `commands.complete` asks the registry
// (the command's own `complete`), a newer request cancels the older, and the answer goes back as
// `commands.completed` with the request's id (the composer drops answers it no longer waits for).
import { errorMessage } from '../base/errors';
import { MAX_COMPLETION_VALUES } from '../protocol/slashCommands';
import type { SlashCommands } from './slashCommands';
import type { HandlerPort, ViewHandlers } from './viewHandlers';

export function commandQueryHandlers(commands: SlashCommands, view: HandlerPort): ViewHandlers {
	let pending: AbortController | undefined;
	return {
		'commands.complete': ({ requestId, command, argument, value, context }) => {
			pending?.abort();
			const controller = new AbortController();
			pending = controller;
			commands.complete(command, argument, value, context, controller.signal).then(
				(values) => {
					if (!controller.signal.aborted) {
						view.send({ type: 'commands.completed', requestId, values: values.slice(0, MAX_COMPLETION_VALUES).map((one) => one.slice(0, 1000)) });
					}
				},
				(error: unknown) => {
					if (!controller.signal.aborted) {
						view.log.warn(`Completing ${argument} of ${command} failed: ${errorMessage(error)}`);
						view.send({ type: 'commands.completed', requestId, values: [] });
					}
				},
			);
		},
	};
}
