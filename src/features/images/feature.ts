// Images in the composer (docs/usage.md, "Images"): pasted, dropped or `@`-attached, checked by the
// host, sent with the message as each provider's image parts, kept beside the transcript and shown as
// thumbnails on the user row. The feature is the view's part that checks what the composer attaches;
// the message itself goes through the core `submit` (src/view/submission.ts).
import type { ChatFeature } from '../feature';
import type { ImageSources } from '../../view/imageUploads';
import { ImageAttachments } from './imageAttachments';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** How the window reads image files and which provider bound holds; absent where it hands none (then only pasted bytes are taken). */
		readonly images?: ImageSources;
	}
}

export const IMAGES: ChatFeature = {
	id: 'images',
	view: (window) => new ImageAttachments(window.services.images, window.log),
};
