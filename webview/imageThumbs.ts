// Images as thumbnails: on a user row (what the person attached, from the host's data URLs) and in the
// composer's tray. A row's thumbnail is a button that opens the image bigger in a dialog (Escape or
// a click closes it); an image whose file is gone says so in words. Names are text, never markup.
import { el } from './dom';
import { formatBytes, type UserImageView } from '../src/protocol/images';

/** `image/png, 1.2 KB, 64×64 px`, as the host names images too. */
export function imageWords(image: { readonly mimeType: string; readonly bytes: number; readonly width?: number; readonly height?: number }): string {
	const pixels = image.width !== undefined && image.height !== undefined ? `, ${image.width}×${image.height} px` : '';
	return `${image.mimeType}, ${formatBytes(image.bytes)}${pixels}`;
}

let viewer: HTMLDialogElement | undefined;

/** The image bigger, in one dialog for the page; the focus goes back to the thumbnail when it closes. */
export function showImage(src: string, label: string, from: HTMLElement): void {
	if (!viewer) {
		viewer = el('dialog', { class: 'image-viewer' });
		viewer.addEventListener('click', () => {
			viewer?.close();
		});
		document.body.append(viewer);
	}
	const dialog = viewer;
	dialog.setAttribute('aria-label', label);
	dialog.replaceChildren(el('img', { src, alt: label }));
	dialog.addEventListener('close', () => {
		from.focus();
	}, { once: true });
	dialog.showModal();
}

function rowImage(image: UserImageView, index: number): HTMLElement {
	const words = imageWords(image);
	if (image.src === undefined) {
		return el('span', { class: 'user-image user-image-missing', role: 'note', tabindex: '0', title: `Image file missing: ${image.missing ?? '?'}` }, `image missing (${words})`);
	}
	const label = `Image ${index + 1}: ${words}`;
	const button = el('button', { type: 'button', class: 'user-image', title: `${label} (Enter shows it bigger)`, 'aria-label': label }, el('img', { src: image.src, alt: '' }));
	const { src } = image;
	button.addEventListener('click', () => {
		showImage(src, label, button);
	});
	return button;
}

/** A user row's images, in order; null when it has none. */
export function userImages(images: readonly UserImageView[] | undefined): HTMLElement | null {
	return images && images.length > 0 ? el('div', { class: 'user-images', role: 'group', 'aria-label': 'Attached images' }, ...images.map(rowImage)) : null;
}
