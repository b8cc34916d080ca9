package dev.cloakgate.tenant;

/** A tenant file that cannot be used, naming the file and the JSON path of the offending key. */
public final class TenantConfigException extends Exception {
    private final String file;
    private final String path;

    public TenantConfigException(String file, String path, String problem) {
        super(file + ": " + path + ": " + problem);
        this.file = file;
        this.path = path;
    }

    public String file() {
        return file;
    }

    public String path() {
        return path;
    }
}
