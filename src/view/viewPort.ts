// What a part of the view (a chat feature's, a slash command, a core handler) may do to the webview.
import type { HostMessage } from '../protocol/messages';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A host message before the connection numbers it. */
export type Unsequenced = DistributiveOmit<HostMessage, 'seq'>;

/** What a feature's view part may do to the webview. */
export interface FeatureViewPort {
	send(message: Unsequenced): void;
	/** Says something in the chat (a refusal, a stop). */
	notice(level: 'info' | 'warning' | 'error', text: string): void;
}
