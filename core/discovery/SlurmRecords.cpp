// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/SlurmRecords.h"

namespace scalelab {

QString SlurmRecord::value(std::initializer_list<const char *> keys, bool *found) const
{
    for (const char *k : keys)
        for (const auto &f : fields)
            if (f.first.compare(QLatin1String(k), Qt::CaseInsensitive) == 0) {
                if (found)
                    *found = true;
                return f.second;
            }
    if (found)
        *found = false;
    return {};
}

bool SlurmRecord::has(const char *key) const
{
    bool found = false;
    value({key}, &found);
    return found;
}

QString SlurmRecords::decode(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes);
    // NUL and other C0 controls (except tab/newline) would survive into JSON as
    // escapes but confuse a terminal; they have no place in Slurm names.
    for (QChar &c : s)
        if (c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t') && c != QLatin1Char('\r'))
            c = QChar(0xFFFD);
    return s;
}

namespace {

// "Key=" where Key is what scontrol prints: letters, digits, _ / : . [ ]
// (e.g. "CPUAlloc=", "gres/gpu=" never starts a word, "LastBusyTime=").
int keyLength(QStringView word)
{
    if (word.isEmpty() || !word.front().isLetter())
        return -1;
    for (qsizetype i = 1; i < word.size(); ++i) {
        const QChar c = word.at(i);
        if (c == QLatin1Char('='))
            return int(i);
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('/') || c == QLatin1Char(':')
              || c == QLatin1Char('.')))
            return -1;
    }
    return -1;
}

}   // namespace

QList<SlurmRecord> SlurmRecords::split(const QString &text, const QString &firstKey)
{
    QList<SlurmRecord> records;
    SlurmRecord *current = nullptr;
    const QStringView all(text);
    for (QStringView line : all.split(QLatin1Char('\n'))) {
        for (QStringView word : line.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            word = word.trimmed();
            if (word.isEmpty())
                continue;
            const int k = keyLength(word);
            if (k > 0) {
                const QString key = word.left(k).toString();
                if (key == firstKey) {
                    records.append(SlurmRecord{});
                    current = &records.last();
                }
                if (current) {
                    current->fields.append({key, word.mid(k + 1).toString()});
                    continue;
                }
            }
            if (current && !current->fields.isEmpty()) {
                QString &v = current->fields.last().second;
                v += QLatin1Char(' ');
                v += word;
            }
        }
    }
    return records;
}

QList<SlurmRecord> SlurmRecords::splitParsable(const QString &text)
{
    QList<SlurmRecord> records;
    QStringList header;
    for (const QString &raw : text.split(QLatin1Char('\n'))) {
        QString line = raw;
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        QStringList cells = line.split(QLatin1Char('|'));
        if (header.isEmpty()) {
            if (cells.size() > 1 && cells.last().isEmpty())
                cells.removeLast();
            header = cells;
            continue;
        }
        SlurmRecord r;
        // A value with '|' in it (a hostile name) spills into extra cells:
        // they are joined back into the first column, the name.
        if (cells.size() > header.size() + 1) {
            const int extra = int(cells.size()) - int(header.size());
            const bool trailing = cells.last().isEmpty();
            const int join = extra - (trailing ? 1 : 0);
            for (int i = 0; i < join; ++i)
                cells[0] += QLatin1Char('|') + cells.takeAt(1);
        }
        for (int i = 0; i < header.size(); ++i)
            r.fields.append({header[i], cells.value(i)});
        records << r;
    }
    return records;
}

QStringList SlurmRecords::splitTopLevel(const QString &list, QChar sep)
{
    QStringList out;
    int depth = 0;
    QString cur;
    for (QChar c : list) {
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')') && depth > 0)
            --depth;
        if (c == sep && depth == 0) {
            if (!cur.isEmpty())
                out << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.isEmpty())
        out << cur;
    return out;
}

bool SlurmRecords::isNone(const QString &v)
{
    const QString t = v.trimmed();
    return t.isEmpty() || t.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
           || t.compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0
           || t.compare(QLatin1String("NONE"), Qt::CaseInsensitive) == 0 || t == QLatin1String("N/A")
           || t == QLatin1String("(null)");
}

}   // namespace scalelab
