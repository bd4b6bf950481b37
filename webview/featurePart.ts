// A chat feature's part of the webview (src/features/): what it places, and the host messages it takes.
import type { HostMessage, ViewState } from '../src/protocol/messages';
import type { Composer } from './composer';

export interface ViewFeaturePart {
	/** Its host messages are `<id>.*`. */
	readonly id: string;
	/** Buttons in the header's actions, before the chat list. */
	readonly headerActions?: readonly HTMLElement[];
	/** A line under the header. */
	readonly top?: HTMLElement;
	/** A panel above the composer. */
	readonly bottom?: HTMLElement;
	receive(message: HostMessage): void;
	/** A snapshot came: what it says of this part (its own fields of the state). */
	snapshot?(state: ViewState): void;
	/** The composer, once made: a part that adds to what it sends (the images tray) takes it here. */
	composer?(composer: Composer): void;
	/** Whether the chat shown has rows (a new chat starts clean). */
	chatHasRows?(hasRows: boolean): void;
}
