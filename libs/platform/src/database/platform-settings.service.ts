import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PlatformSetting } from './platform-setting.entity';

@Injectable()
export class PlatformSettingsService {
  constructor(@InjectRepository(PlatformSetting) private readonly settings: Repository<PlatformSetting>) {}

  async get(key: string): Promise<string | null> {
    const row = await this.settings.findOneBy({ key });
    return row?.value ?? null;
  }

  /** Stores the value unless the key already has one; returns the value that is stored and whether it was this one. */
  async putIfAbsent(key: string, value: string): Promise<{ value: string; created: boolean }> {
    const inserted = await this.settings.createQueryBuilder().insert().values({ key, value }).orIgnore().execute();
    const created = (inserted.raw as unknown[]).length > 0;
    if (created) return { value, created };
    return { value: (await this.get(key)) as string, created: false };
  }
}
