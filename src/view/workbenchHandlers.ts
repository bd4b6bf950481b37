// The messages that ask the workbench around the view for something (the clipboard, a link, a
// mentioned file, the trust editor), the first-run setup's buttons, and the view's own log lines.
import { errorMessage } from '../base/errors';
import { openableLink, type SetupControls, type WorkbenchActions } from './controls';
import type { HandlerPort, ViewHandlers } from './viewHandlers';

export function workbenchHandlers(workbench: WorkbenchActions, view: HandlerPort): ViewHandlers {
	return {
		copy: ({ text }) => {
			workbench.copy(text).then(undefined, (error: unknown) => {
				view.notice('error', `Could not copy to the clipboard: ${errorMessage(error)}`);
			});
		},
		'notice.act': () => {
			void workbench.manageTrust?.();
		},
		'link.open': (message) => {
			const href = openableLink(message.href);
			if (href === undefined) {
				view.log.warn(`Chat view: refused to open a link that is not http(s) or mailto: ${JSON.stringify(message.href.slice(0, 200))}`);
				view.notice('warning', 'Only http, https and mailto links can be opened from the chat.');
				return;
			}
			workbench.openLink(href).then(undefined, (error: unknown) => {
				view.notice('error', `Could not open the link: ${errorMessage(error)}`);
			});
		},
		'mention.open': ({ path, range }) => {
			workbench.openMention(path, range).then(
				(refused) => {
					if (refused !== undefined) {
						view.notice('warning', refused);
					}
				},
				(error: unknown) => {
					view.notice('error', `Could not open ${path}: ${errorMessage(error)}`);
				},
			);
		},
		log: ({ level, message }) => {
			const line = `Chat view: ${message}`;
			if (level === 'error') {
				view.log.error(line);
			} else if (level === 'warning') {
				view.log.warn(line);
			} else {
				view.log.info(line);
			}
		},
	};
}

/** The empty state's first-run buttons; a host without setup says so in its log. */
export function setupHandlers(setup: SetupControls | undefined, view: HandlerPort): ViewHandlers {
	const withSetup = (act: (setup: SetupControls) => void): void => {
		if (setup) {
			act(setup);
		} else {
			view.log.warn('The chat view asked for a setup action, but this host offers none.');
		}
	};
	return {
		'provider.choose': () => {
			withSetup((it) => {
				it.chooseProvider();
			});
		},
		'provider.useDetected': ({ id }) => {
			withSetup((it) => {
				it.useDetected(id);
			});
		},
		'apiKey.store': () => {
			withSetup((it) => {
				it.storeKey();
			});
		},
	};
}
