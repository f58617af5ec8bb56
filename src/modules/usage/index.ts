export { UsageDto, UsageQueryDto } from './dto/usage.dto.js';
export { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, usagePeriod } from './usage-period.js';
export { UsageRecordsModule } from './usage-records.module.js';
export { UsageModule } from './usage.module.js';
export { UsageService } from './usage.service.js';
