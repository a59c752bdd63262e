import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { withLocalTimes } from './clock';
import { Link } from './router';

/** `[#2, #5]` citations of runs, as answers write them. */
const CITATION = /\[(#\d+(?:, #\d+)*)\]/g;

/**
 * An answer as its Markdown says it (paragraphs, lists, the tables of a breakdown), its `[#n]`
 * citations linking to the runs of the investigation that answered (`/investigations/{id}#run-n`).
 * Raw HTML in the text is shown as text, never rendered.
 */
export function AnswerText({ text, investigationId }: { text: string; investigationId?: string | null }) {
  const timed = withLocalTimes(text);
  const linked = investigationId
    ? timed.replace(
        CITATION,
        (_all, refs: string) =>
          `[${refs
            .split(', ')
            .map((r) => `[${r}](/investigations/${investigationId}#run-${r.slice(1)})`)
            .join(', ')}]`,
      )
    : timed;
  const components: Components = {
    a: ({ href, children }) => {
      const run = href ? /^\/investigations\/[^#]+#run-(\d+)$/.exec(href) : null;
      return run ? (
        <Link to={href!} aria-label={`Tool run ${run[1]}`}>
          {children}
        </Link>
      ) : (
        <a href={href} rel="noreferrer noopener" target="_blank">
          {children}
        </a>
      );
    },
  };
  return (
    <div className="answer">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {linked}
      </Markdown>
    </div>
  );
}
