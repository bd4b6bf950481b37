// The core's handlers of the webview's messages, one table per concern (the chat list, the
// composer's queries, the workbench around the view), merged by the view connection. A feature's
// messages go to its part by prefix instead (featureView.ts).
import type { Logger } from '../base/log';
import type { ViewMessage } from '../protocol/messages';
import type { FeatureViewPort } from './featureView';

/** At most one handler per message type, typed by it. */
export type ViewHandlers = { readonly [T in ViewMessage['type']]?: (message: Extract<ViewMessage, { type: T }>) => void };

/** What a handler may do to the webview. */
export interface HandlerPort extends FeatureViewPort {
	readonly log: Logger;
}

/** The handler of `message`'s type in `handlers`, if any. */
export function handlerFor(handlers: ViewHandlers, message: ViewMessage): ((message: ViewMessage) => void) | undefined {
	return handlers[message.type] as ((message: ViewMessage) => void) | undefined;
}
