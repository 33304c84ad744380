// The instructions every contender gives its two agents (this runtime adds its own system prompt around them).
export const RECEPTION_INSTRUCTIONS = 'You are the reception. Hand every question to the worker with your tool, then answer with what it said.';
export const WORKER_INSTRUCTIONS = 'You are the worker. Answer the question you are given, briefly.';
