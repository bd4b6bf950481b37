// Small, valid PDFs written byte by byte for tests (no binary is committed): one page per entry
// of `pages`, each line of its text drawn with Helvetica; `null` is a page with nothing drawn (as
// a scanned page's text layer is empty). `encrypted` adds a Standard security handler whose
// password is not empty, so a reader must refuse it.
export interface PdfFixtureOptions {
	readonly encrypted?: boolean;
}

export function pdfBytes(pages: readonly (string | null)[], options: PdfFixtureOptions = {}): Buffer {
	const objects: string[] = [];
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	objects[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`;
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
	pages.forEach((text, i) => {
		const lines = text === null ? [] : text.split('\n');
		const ops = lines.map((line, j) => `BT /F1 12 Tf 72 ${720 - j * 16} Td (${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`).join('\n');
		objects[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
		objects[5 + i * 2] = `<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`;
	});
	let encrypt = '';
	if (options.encrypted) {
		const id = objects.length;
		objects[id] = `<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`;
		encrypt = ` /Encrypt ${id} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
	}
	let out = '%PDF-1.4\n';
	const offsets: number[] = [];
	for (let n = 1; n < objects.length; n++) {
		offsets[n] = Buffer.byteLength(out, 'latin1');
		out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
	}
	const xref = Buffer.byteLength(out, 'latin1');
	out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let n = 1; n < objects.length; n++) {
		out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
	}
	out += `trailer\n<< /Size ${objects.length} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}
