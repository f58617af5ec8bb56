import { DiscoveryService } from '@nestjs/core';

/**
 * Marks a GET whose requests with a valid key the limiter reads the quota for instead of counting
 * (`GET /v1/rate_limit`); the handler gets that reading from the request context (`quota`).
 */
export const UncountedRead = DiscoveryService.createDecorator<void>();
