/**
 * Safe Markdown for agent text: raw HTML is escaped (markdown-it `html: false`), and links other than http(s)
 * and mailto are dropped (no `javascript:`/`data:`). User and system text is never rendered as Markdown.
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
const SAFE_LINK = /^(https?:|mailto:)/i;
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());

// Links open outside the app window and never leak the page URL (no referrer, no opener).
const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen === undefined ? self.renderToken(tokens, idx, options) : defaultLinkOpen(tokens, idx, options, env, self);
};

/** HTML for one agent message. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
