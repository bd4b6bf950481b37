// The webview's side of the chat features (src/features/features.ts): each feature's part, one
// line each in the list. main.ts places their elements and routes each host message whose type
// starts with a part's id (`goal.*`) to it; it knows no feature by name.
import type { HostMessage, ViewMessage, ViewState } from '../src/protocol/messages';
import { GoalControl } from './goal';
import { TaskPanel } from './tasks';

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
	/** Whether the chat shown has rows (a new chat starts clean). */
	chatHasRows?(hasRows: boolean): void;
}

export function featureParts(post: (message: ViewMessage) => void): ViewFeaturePart[] {
	return [
		new GoalControl(post),
		new TaskPanel(),
	];
}

/** The part that owns a host message, by its type's prefix. */
export function partFor(parts: readonly ViewFeaturePart[], type: string): ViewFeaturePart | undefined {
	const dot = type.indexOf('.');
	return dot < 0 ? undefined : parts.find((part) => part.id === type.slice(0, dot));
}
