// The projection check lives in core (the stateless path refuses an engine's invalid projection before sending it).
export { validateProjection, type ProjectionProblem, type ProjectionProblemCode } from '@ctxhost/core';
