// The composer's images (src/features/images/): pasted (a clipboard image), dropped (a file from the
// OS, or one from VS Code's explorer by its URI) or picked from the `@` list (an image file becomes an
// attachment, not a mention). The bytes go to the host, which checks them (by their bytes, against
// the model's bound) and answers; what it took shows as a thumbnail in the tray above the box, with a
// remove (×) button, until the message goes (`images.sent`). A refusal is said in the tray's line and
// loses nothing: the text stays in the box, the other images in the tray.
import type { HostMessage } from '../src/protocol/messages';
import { type AttachedImageView, formatBytes, type ImageUpload, MAX_ATTACHED_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE } from '../src/protocol/images';
import type { ComposerAttachments, Composer } from './composer';
import { el, icon } from './dom';
import type { ViewFeaturePart } from './featurePart';
import { post } from './host';
import { imageWords, showImage } from './imageThumbs';

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/iu;
const URI_TYPES = ['application/vnd.code.uri-list', 'text/uri-list'];

interface Attached extends AttachedImageView {
	readonly data: string;
}

function base64Of(file: Blob): Promise<string> {
	return new Promise((resolve, reject) => {
		const reader = new FileReader();
		reader.addEventListener('load', () => {
			const url = typeof reader.result === 'string' ? reader.result : '';
			resolve(url.slice(url.indexOf(',') + 1));
		});
		reader.addEventListener('error', () => {
			reject(reader.error ?? new Error('the file could not be read'));
		});
		reader.readAsDataURL(file);
	});
}

export class ImageTray implements ViewFeaturePart, ComposerAttachments {
	readonly id = 'images';
	readonly bottom: HTMLElement;
	private readonly list = el('ul', { class: 'image-tray-list', 'aria-label': 'Images attached to the message' });
	private readonly message = el('div', { class: 'image-tray-message', role: 'alert' });
	private images: Attached[] = [];
	/** Pasted or dropped bytes waiting for the host's answer, by request id; '' for a file the host reads. */
	private readonly pending = new Map<string, { readonly name: string; readonly data: string }>();
	private asked = 0;
	private box: Composer | undefined;

	constructor() {
		this.bottom = el('div', { class: 'image-tray', hidden: true }, this.list, this.message);
	}

	/** Listens for pastes and drops on the composer, and gives it what it sends beside the text. */
	composer(composer: Composer): void {
		this.box = composer;
		composer.setAttachments(this);
		composer.element.addEventListener('paste', (event) => {
			const files = Array.from(event.clipboardData?.files ?? []);
			if (files.length > 0) {
				event.preventDefault();
				this.addFiles(files);
			}
		});
		composer.element.addEventListener('dragover', (event) => {
			const types = Array.from(event.dataTransfer?.types ?? []);
			if (types.includes('Files') || URI_TYPES.some((type) => types.includes(type))) {
				event.preventDefault();
			}
		});
		composer.element.addEventListener('drop', (event) => {
			const transfer = event.dataTransfer;
			if (!transfer) {
				return;
			}
			event.preventDefault();
			const files = Array.from(transfer.files);
			if (files.length > 0) {
				this.addFiles(files);
				return;
			}
			const uris = URI_TYPES.map((type) => transfer.getData(type)).find((list) => list !== '') ?? '';
			for (const uri of uris.split(/\r?\n/u).filter((line) => line !== '' && !line.startsWith('#'))) {
				if (!this.pickFile(uri.trim())) {
					this.say(`${uri.trim()} is not an image file (PNG, JPEG, GIF or WebP): only images can be dropped here.`);
				}
			}
		});
	}

	count(): number {
		return this.images.length;
	}

	uploads(): ImageUpload[] {
		return this.images.map((image) => ({ name: image.name, data: image.data }));
	}

	pickFile(file: string): boolean {
		if (!IMAGE_NAME.test(file) || !this.roomFor(file)) {
			return IMAGE_NAME.test(file);
		}
		const requestId = this.nextId();
		this.pending.set(requestId, { name: file, data: '' });
		post({ type: 'images.attachFile', requestId, file });
		return true;
	}

	addFiles(files: readonly File[]): void {
		for (const file of files) {
			const name = file.name === '' ? 'pasted image' : file.name;
			if (file.size > MAX_ATTACHED_IMAGE_BYTES) {
				this.say(`${JSON.stringify(name)} is ${formatBytes(file.size)}: the largest image Aside sends is ${formatBytes(MAX_ATTACHED_IMAGE_BYTES)} (the OpenAI-compatible bound). It was not attached; your text is still in the box.`);
				continue;
			}
			if (!this.roomFor(name)) {
				return;
			}
			const requestId = this.nextId();
			this.pending.set(requestId, { name, data: '' });
			void base64Of(file).then(
				(data) => {
					this.pending.set(requestId, { name, data });
					post({ type: 'images.attach', requestId, image: { name, data } });
				},
				(error: unknown) => {
					this.pending.delete(requestId);
					this.say(`${JSON.stringify(name)} could not be read: ${String(error)}`);
				},
			);
		}
	}

	receive(message: HostMessage): void {
		if (message.type === 'images.attached') {
			const pending = this.pending.get(message.requestId);
			this.pending.delete(message.requestId);
			const data = message.image.data ?? pending?.data;
			if (pending && data) {
				this.images.push({ ...message.image, data });
				this.say('');
				this.render();
			}
		} else if (message.type === 'images.refused') {
			this.pending.delete(message.requestId);
			this.say(`${message.reason} Your text is still in the box.`);
		} else if (message.type === 'images.sent') {
			this.images = [];
			this.say('');
			this.render();
		}
	}

	private roomFor(name: string): boolean {
		if (this.images.length + this.pending.size < MAX_IMAGES_PER_MESSAGE) {
			return true;
		}
		this.say(`${JSON.stringify(name)} was not attached: a message carries at most ${MAX_IMAGES_PER_MESSAGE} images.`);
		return false;
	}

	private nextId(): string {
		return `img-${++this.asked}`;
	}

	private say(text: string): void {
		this.message.textContent = text;
		this.bottom.hidden = this.images.length === 0 && text === '';
	}

	private render(): void {
		this.list.replaceChildren(...this.images.map((image, index) => this.thumb(image, index)));
		this.bottom.hidden = this.images.length === 0 && this.message.textContent === '';
		this.box?.attachmentsChanged();
	}

	private thumb(image: Attached, index: number): HTMLElement {
		const src = `data:${image.mimeType};base64,${image.data}`;
		const label = `${image.name} (${imageWords(image)})`;
		const view = el('button', { type: 'button', class: 'image-tray-thumb', title: `${label} (Enter shows it bigger)`, 'aria-label': `Show ${label}` }, el('img', { src, alt: '' }));
		view.addEventListener('click', () => {
			showImage(src, label, view);
		});
		const remove = el('button', { type: 'button', class: 'icon-button image-tray-remove', title: `Remove ${image.name}`, 'aria-label': `Remove image ${image.name}` }, icon('close'));
		remove.addEventListener('click', () => {
			this.images.splice(index, 1);
			this.render();
			// The focus goes to the next image's remove button, else back to the box.
			const next = this.list.querySelectorAll<HTMLButtonElement>('.image-tray-remove')[Math.min(index, this.images.length - 1)];
			(next ?? undefined)?.focus();
			if (!next) {
				this.box?.focus();
			}
		});
		return el('li', { class: 'image-tray-item', 'data-image': String(index) }, view, remove);
	}
}
