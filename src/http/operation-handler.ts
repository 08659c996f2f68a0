import type { NextFunction, Request, Response } from "express";

export type OperationHandler = (request: Request, response: Response, next: NextFunction) => Promise<void> | void;

/** A handler for every operation of a generated `operations` type: a missing one fails the build. */
export type OperationHandlerMap<Operations> = { [OperationId in keyof Operations]: OperationHandler };
