/** The blackboard as a person's screen shows it (types only: the host builds it, the GUI client reads it). */

/** One note (`content` cut at 256 KiB with `truncated`). */
export interface BlackboardNoteView {
  name: string;
  author: string | null;
  authorName: string | null;
  postedAtMs: number | null;
  modifiedMs: number;
  title: string;
  content: string;
  truncated: boolean;
}

/** The board of one work folder and the agents that share it. */
export interface BlackboardView {
  dir: string;
  agents: string[];
  notes: BlackboardNoteView[];
}
