import { EvalCell, EvalCellClient, EvalPublisherCell } from './cell.js';
import { EvalSignal } from './signal.js';

export const evalEntities = [EvalSignal, EvalCell, EvalCellClient, EvalPublisherCell];
