/** Text for HTML, in an element or a quoted attribute: the five characters that could end either. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
