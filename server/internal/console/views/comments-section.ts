/** Internal comments on a registration: reviewers and admins only, never shown to requesters. */
import type { Comment } from '../../../components/comments/comments.model.js';
import { MAX_COMMENT_LENGTH } from '../../../components/comments/comments.model.js';
import { escapeHtml } from '../../../../lib/escape-html.js';
import { csrfField, formatTime, type PageContext } from './layout.js';

export function commentsSection(ctx: PageContext, comments: readonly Comment[], actionUrl: string): string {
  const list = comments.length
    ? `<ol class="comments">${comments
        .map(
          (c) =>
            `<li class="card"><p class="muted">${escapeHtml(c.author)} · ${formatTime(c.createdAt)}</p><p class="comment-body">${escapeHtml(c.body)}</p></li>`,
        )
        .join('')}</ol>`
    : '<p class="muted">No internal comments yet.</p>';
  return `<h2>Internal comments</h2>${list}
<form class="card" method="post" action="${escapeHtml(actionUrl)}">${csrfField(ctx)}
<label for="comment-body">Add a comment (reviewers and admins only)</label>
<textarea id="comment-body" name="body" required maxlength="${MAX_COMMENT_LENGTH}"></textarea>
<button type="submit" class="secondary">Add comment</button></form>`;
}
