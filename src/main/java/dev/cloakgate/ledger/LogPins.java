package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.List;

/**
 * What an auditor pins about the log a bundle must be ({@code ledger verify --tenant T --origin O}): a genuine export
 * of another tenant's or another deployment's log is then invalid, not merely "valid, of something else". Null
 * means not pinned.
 */
public record LogPins(String tenant, String origin) {
    public static final LogPins NONE = new LogPins(null, null);

    public boolean pinned() {
        return tenant != null || origin != null;
    }

    /** The failures for a bundle whose manifest (or checkpoints) say {@code tenant} and {@code origin}. */
    List<VerifyReport.Failure> check(String bundleTenant, String bundleOrigin) {
        List<VerifyReport.Failure> out = new ArrayList<>();
        if (tenant != null && !tenant.equals(bundleTenant)) {
            out.add(new VerifyReport.Failure("pinned_tenant_mismatch", BundleLayout.MANIFEST, null, null, null,
                    bundleTenant == null ? "the bundle does not say whose ledger it is; pinned tenant " + tenant
                            : "the bundle is the ledger of tenant " + bundleTenant + ", not the pinned " + tenant));
        }
        if (origin != null && !origin.equals(bundleOrigin)) {
            out.add(new VerifyReport.Failure("pinned_origin_mismatch", BundleLayout.MANIFEST, null, null, null,
                    bundleOrigin == null ? "the bundle does not say which log it is; pinned origin " + origin
                            : "the bundle is the log " + bundleOrigin + ", not the pinned " + origin));
        }
        return out;
    }
}
