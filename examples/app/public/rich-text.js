// Trix can take files (its attach button, a drop, a paste), but rich_text is stored as HTML
// alone: refuse them, so the editor never shows a file that would be lost on save.
document.addEventListener("trix-file-accept", (event) => event.preventDefault());
